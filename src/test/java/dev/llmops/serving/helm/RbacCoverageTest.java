package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.dependent.DependentResourceSpec;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Deleter;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.dependent.BulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.Updater;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.GenericKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.GroupVersionKindPlural;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart grants the operator exactly the API calls its code makes, no more. The calls are derived from the
 * registered controllers: each primary resource (watch, finalizers, status through server-side apply), every informer
 * the controllers registered (their event sources exist once a controller is registered), each workflow dependent
 * (create and patch for a Creator, patch for an Updater, delete for a Deleter that is not garbage-collected), and the
 * explicit client calls each reconciler declares with {@link RBACRule}.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
class RbacCoverageTest {

    /** Cluster-scoped resources a reconciler may declare by name, for which a Role would not do. */
    private static final Set<String> CLUSTER_SCOPED = Set.of(
            "nodes",
            "persistentvolumes",
            "namespaces",
            "storageclasses",
            "runtimeclasses",
            "customresourcedefinitions");

    private static final String WATCHED = "team-a";

    @Inject
    Operator operator;

    /** One API call the operator makes: verb on group/resource, namespaced or cluster-wide. */
    record Call(String group, String resource, String verb, boolean clusterScoped) implements Comparable<Call> {
        @Override
        public int compareTo(Call other) {
            return toString().compareTo(other.toString());
        }

        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + (clusterScoped ? " (cluster)" : "");
        }
    }

    @Test
    void everyCallOfTheCodeIsGrantedInEveryNamespaceMode() throws ReflectiveOperationException {
        Set<Call> calls = callsOfTheCode();
        assertThat(calls).as("calls derived from the controllers").isNotEmpty();

        Map<Map<String, Object>, String> watchedNamespaceOfValues = Map.of(
                Map.of(), RenderedChart.NAMESPACE,
                Map.of("watchNamespaces[0]", WATCHED), WATCHED,
                Map.of("watchAllNamespaces", true), WATCHED);
        watchedNamespaceOfValues.forEach((values, watched) -> {
            List<RenderedChart.ScopedRule> granted =
                    RenderedChart.render(values).grantedRules();
            assertThat(calls)
                    .as("calls without a rule in " + watched + ", with values " + values)
                    .filteredOn(call -> granted.stream()
                            .noneMatch(rule -> rule.permits(
                                    call.clusterScoped() ? null : watched, call.group(), call.resource(), call.verb())))
                    .isEmpty();
        });
    }

    @Test
    void theChartGrantsNothingTheCodeDoesNotCall() throws ReflectiveOperationException {
        Set<Call> calls = callsOfTheCode();
        Set<Call> grantedNotCalled = new TreeSet<>();
        Stream.of(Map.<String, Object>of(), Map.<String, Object>of("watchAllNamespaces", true))
                .flatMap(values -> RenderedChart.render(values).grantedRules().stream())
                .map(RenderedChart.ScopedRule::rule)
                .filter(rule -> !rule.getResources().contains("leases"))
                .forEach(rule -> rule.getApiGroups()
                        .forEach(group -> rule.getResources()
                                .forEach(resource -> rule.getVerbs().forEach(verb -> {
                                    Call call = new Call(group, resource, verb, CLUSTER_SCOPED.contains(resource));
                                    if (!calls.contains(call)) {
                                        grantedNotCalled.add(call);
                                    }
                                }))));
        assertThat(grantedNotCalled).as("granted but never called").isEmpty();
    }

    private Set<Call> callsOfTheCode() throws ReflectiveOperationException {
        Set<Call> calls = new TreeSet<>();
        for (RegisteredController<?> registered : operator.getRegisteredControllers()) {
            Controller<?> controller = (Controller<?>) registered;
            ControllerConfiguration<?> configuration = controller.getConfiguration();
            Class<? extends HasMetadata> primary = configuration.getResourceClass();
            add(calls, primary, "", "get", "list", "watch", "patch");
            add(calls, primary, "/status", "patch");
            add(calls, primary, "/finalizers", "update");
            for (EventSource<?, ?> source : controller.getEventSourceManager().allEventSources()) {
                Class<?> type = source.resourceType();
                if (HasMetadata.class.isAssignableFrom(type) && type != GenericKubernetesResource.class) {
                    add(calls, type.asSubclass(HasMetadata.class), "", "list", "watch");
                }
            }
            for (DependentResourceSpec<?, ?, ?> dependent : configuration
                    .getWorkflowSpec()
                    .map(w -> w.getDependentResourceSpecs())
                    .orElse(List.of())) {
                addDependent(calls, dependent.getDependentResourceClass());
            }
            Class<?> reconciler = Class.forName(configuration.getAssociatedReconcilerClassName());
            for (RBACRule rule : reconciler.getAnnotationsByType(RBACRule.class)) {
                for (String group : rule.apiGroups()) {
                    for (String resource : rule.resources()) {
                        for (String verb : rule.verbs()) {
                            calls.add(new Call(group, resource, verb, CLUSTER_SCOPED.contains(resource)));
                        }
                    }
                }
            }
        }
        return calls;
    }

    private static void addDependent(Set<Call> calls, Class<?> dependent) throws ReflectiveOperationException {
        List<String> verbs = new ArrayList<>(List.of("list", "watch"));
        if (Creator.class.isAssignableFrom(dependent)) {
            verbs.addAll(List.of("create", "patch"));
        }
        if (Updater.class.isAssignableFrom(dependent)) {
            verbs.add("patch");
        }
        // Garbage collection deletes what a dependent owns, but a bulk dependent deletes what it no longer desires.
        if (Deleter.class.isAssignableFrom(dependent)
                && (!GarbageCollected.class.isAssignableFrom(dependent)
                        || BulkDependentResource.class.isAssignableFrom(dependent))) {
            verbs.add("delete");
        }
        if (GenericKubernetesDependentResource.class.isAssignableFrom(dependent)) {
            GroupVersionKindPlural gvk = ((GenericKubernetesDependentResource<?>)
                            dependent.getDeclaredConstructor().newInstance())
                    .getGroupVersionKind();
            verbs.forEach(verb -> calls.add(new Call(gvk.getGroup(), gvk.getPluralOrDefault(), verb, false)));
        } else {
            add(calls, resourceType(dependent), "", verbs.toArray(String[]::new));
        }
    }

    private static void add(Set<Call> calls, Class<? extends HasMetadata> type, String subresource, String... verbs) {
        boolean clusterScoped = !Namespaced.class.isAssignableFrom(type);
        for (String verb : verbs) {
            calls.add(new Call(
                    HasMetadata.getGroup(type), HasMetadata.getPlural(type) + subresource, verb, clusterScoped));
        }
    }

    /** The R of a KubernetesDependentResource&lt;R, P&gt; subclass. */
    @SuppressWarnings("unchecked")
    private static Class<? extends HasMetadata> resourceType(Class<?> dependent) {
        for (Class<?> c = dependent; c != null; c = c.getSuperclass()) {
            Type superclass = c.getGenericSuperclass();
            if (superclass instanceof ParameterizedType parameterized
                    && KubernetesDependentResource.class.isAssignableFrom((Class<?>) parameterized.getRawType())
                    && parameterized.getActualTypeArguments()[0] instanceof Class<?> type) {
                return (Class<? extends HasMetadata>) type;
            }
        }
        throw new IllegalArgumentException(
                dependent + " is not a KubernetesDependentResource with a concrete resource type");
    }
}
