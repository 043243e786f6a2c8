package dev.llmops.serving.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** The chart rendered in-process with helm's own template engine, as the objects a cluster would receive. */
public record RenderedChart(List<HasMetadata> objects) {

    public static final Path CHART = Path.of("helm/llm-serving-operator");
    public static final String RELEASE = "llmops";
    public static final String NAMESPACE = "llm-system";
    public static final String FULLNAME = "llmops-llm-serving-operator";

    public static RenderedChart render(Map<String, Object> values) {
        return render(values, NAMESPACE);
    }

    /** The chart as released into the given namespace. */
    public static RenderedChart render(Map<String, Object> values, String namespace) {
        TemplateCommand template = new Helm(CHART)
                .template()
                .withName(RELEASE)
                .withNamespace(namespace)
                .withKubeVersion("1.31.0");
        values.forEach(template::set);
        Object parsed = new KubernetesSerialization().unmarshal(template.call());
        @SuppressWarnings("unchecked")
        List<HasMetadata> objects =
                parsed instanceof List<?> list ? (List<HasMetadata>) list : List.of((HasMetadata) parsed);
        return new RenderedChart(objects);
    }

    public <T extends HasMetadata> Stream<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast);
    }

    public Stream<HasMetadata> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.getKind()));
    }

    public <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }

    public Deployment deployment() {
        return find(Deployment.class, FULLNAME).orElseThrow();
    }

    /** The operator's container, the Deployment's only one. */
    public Container operatorContainer() {
        return deployment().getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    /**
     * Every rule the operator's ServiceAccount is bound to, with the namespace it applies in (null: every namespace).
     */
    public List<ScopedRule> grantedRules() {
        Stream<ScopedRule> clusterWide = all(ClusterRoleBinding.class)
                .map(b -> b.getRoleRef().getName())
                .flatMap(name -> find(ClusterRole.class, name).stream())
                .flatMap(r -> r.getRules().stream().map(rule -> new ScopedRule(null, rule)));
        Stream<ScopedRule> namespaced = all(RoleBinding.class)
                .flatMap(b -> all(Role.class)
                        .filter(r ->
                                r.getMetadata().getName().equals(b.getRoleRef().getName())
                                        && r.getMetadata()
                                                .getNamespace()
                                                .equals(b.getMetadata().getNamespace()))
                        .flatMap(r -> r.getRules().stream()
                                .map(rule -> new ScopedRule(r.getMetadata().getNamespace(), rule))));
        return Stream.concat(clusterWide, namespaced).toList();
    }

    /** A rule and where it applies: a namespace, or every namespace when null. */
    public record ScopedRule(String namespace, PolicyRule rule) {

        /**
         * Whether the rule allows the verb on any object of the resource; namespace null for a cluster-scoped resource.
         */
        public boolean permits(String namespace, String group, String resource, String verb) {
            return (this.namespace == null || this.namespace.equals(namespace))
                    && (rule.getResourceNames() == null
                            || rule.getResourceNames().isEmpty())
                    && rule.getApiGroups().contains(group)
                    && rule.getResources().contains(resource)
                    && rule.getVerbs().contains(verb);
        }
    }
}
