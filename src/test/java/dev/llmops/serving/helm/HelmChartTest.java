package dev.llmops.serving.helm;

import static dev.llmops.serving.helm.RenderedChart.FULLNAME;
import static dev.llmops.serving.helm.RenderedChart.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.llmops.serving.operator.config.LeaderElection;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The chart lints, renders what its values say, and grants the operator only what it needs. */
class HelmChartTest {

    private static final String OPERATOR_IMAGE = "ghcr.io/llmops-dev/llm-serving-operator:0.1.0";

    @Test
    void lintsStrictly() {
        LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();

        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    @Test
    void chartCrdsAreTheProjectCrds() throws IOException {
        Path chartCrds = RenderedChart.CHART.resolve("crds");
        List<String> names = fileNames(Path.of("deploy/crds"));

        assertThat(fileNames(chartCrds)).as("CRD files of the chart").isEqualTo(names);
        for (String name : names) {
            assertThat(Files.readString(chartCrds.resolve(name)))
                    .as("chart crds/" + name + " differs from deploy/crds: copy it")
                    .isEqualTo(Files.readString(Path.of("deploy/crds", name)));
        }
    }

    @Test
    void operatorPodMeetsPodSecurityRestricted() {
        PodSpec pod = RenderedChart.render(Map.of())
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec();
        Container operator = pod.getContainers().get(0);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getHostNetwork()).isNull();
        assertThat(pod.getVolumes()).allSatisfy(v -> assertThat(v.getHostPath()).isNull());
        assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(operator.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(operator.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(operator.getSecurityContext().getPrivileged()).isNull();
        assertThat(operator.getVolumeMounts()).extracting(m -> m.getMountPath()).containsExactly("/tmp");
        assertThat(operator.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(operator.getResources().getLimits()).containsKey("memory");
    }

    @Test
    void probesUseQuarkusHealthOnTheHttpPort() {
        Container operator = RenderedChart.render(Map.of("http.port", 9090)).operatorContainer();

        assertThat(operator.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getContainerPort()).isEqualTo(9090);
        });
        assertThat(env(operator)).containsEntry("QUARKUS_HTTP_PORT", "9090");
        assertProbe(operator.getLivenessProbe(), "/q/health/live");
        assertProbe(operator.getReadinessProbe(), "/q/health/ready");
        assertProbe(operator.getStartupProbe(), "/q/health/started");
        assertThat(operator.getArgs())
                .as("no subcommand: the image runs the operator")
                .isNullOrEmpty();
        assertThat(operator.getCommand()).isNullOrEmpty();
    }

    @Test
    void defaultsMatchTheOperatorsOwnDefaults() throws NoSuchMethodException {
        Container operator = RenderedChart.render(Map.of()).operatorContainer();

        assertThat(operator.getImage()).isEqualTo(OPERATOR_IMAGE);
        assertThat(env(operator))
                .containsEntry("LLMOPS_SGLANG_IMAGE", withDefault(OperatorConfig.Sglang.class, "image"))
                .containsEntry("LLMOPS_RUNNER_IMAGE", withDefault(OperatorConfig.Runner.class, "image"))
                .containsEntry("LLMOPS_RUNNER_IMAGE", OPERATOR_IMAGE)
                .containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", NAMESPACE)
                .containsEntry("LLMOPS_LEADER_ELECTION_LEASE_NAME", FULLNAME)
                .containsEntry("QUARKUS_LOG_LEVEL", "INFO")
                .containsEntry("QUARKUS_HTTP_PORT", "8080")
                .doesNotContainKey("LLMOPS_SGLANG_RUNTIME_CLASS_NAME")
                .doesNotContainKey("LLMOPS_BENCHMARK_API_KEY_HOSTS")
                .containsEntry(
                        "LLMOPS_BENCHMARK_RETENTION_GROUP_BY",
                        withDefault(OperatorConfig.Benchmark.Retention.class, "groupBy"))
                .doesNotContainKey("LLMOPS_BENCHMARK_RETENTION_TTL_SECONDS_AFTER_FINISHED")
                .doesNotContainKey("LLMOPS_BENCHMARK_RETENTION_KEEP_LAST");
    }

    @Test
    void aRetentionDefaultReachesTheOperatorAndIsCheckedByTheValuesSchema() {
        Container operator = RenderedChart.render(Map.of(
                        "benchmark.retention.ttlSecondsAfterFinished",
                        0,
                        "benchmark.retention.keepLast",
                        50,
                        "benchmark.retention.groupBy",
                        "Reference"))
                .operatorContainer();

        assertThat(env(operator))
                .containsEntry("LLMOPS_BENCHMARK_RETENTION_TTL_SECONDS_AFTER_FINISHED", "0")
                .containsEntry("LLMOPS_BENCHMARK_RETENTION_KEEP_LAST", "50")
                .containsEntry("LLMOPS_BENCHMARK_RETENTION_GROUP_BY", "Reference");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("benchmark.retention.keepLast", 0)))
                .hasMessageContaining("keepLast");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("benchmark.retention.groupBy", "Model")))
                .hasMessageContaining("groupBy");
    }

    @Test
    void theArchiveReachesTheOperatorWithItsCredentialsFromTheSecret() {
        Container operator = RenderedChart.render(Map.of(
                        "results.s3.enabled", true,
                        "results.s3.endpoint", "http://minio.storage:9000",
                        "results.s3.bucket", "benchmarks",
                        "results.s3.pathStyle", true,
                        "results.s3.credentialsSecret", "minio-benchmarks"))
                .operatorContainer();

        assertThat(env(operator))
                .containsEntry("LLMOPS_RESULTS_S3_ENDPOINT", "http://minio.storage:9000")
                .containsEntry("LLMOPS_RESULTS_S3_BUCKET", "benchmarks")
                .containsEntry("LLMOPS_RESULTS_S3_PREFIX", "benchmarkruns")
                .containsEntry("LLMOPS_RESULTS_S3_REGION", "us-east-1")
                .containsEntry("LLMOPS_RESULTS_S3_PATH_STYLE", "true");
        assertThat(operator.getEnv())
                .filteredOn(variable -> variable.getName().startsWith("AWS_"))
                .extracting(
                        EnvVar::getName,
                        variable -> variable.getValueFrom().getSecretKeyRef().getName(),
                        variable -> variable.getValueFrom().getSecretKeyRef().getKey())
                .containsExactly(
                        tuple("AWS_ACCESS_KEY_ID", "minio-benchmarks", "AWS_ACCESS_KEY_ID"),
                        tuple("AWS_SECRET_ACCESS_KEY", "minio-benchmarks", "AWS_SECRET_ACCESS_KEY"));
        assertThat(env(RenderedChart.render(Map.of("results.s3.bucket", "benchmarks"))
                        .operatorContainer()))
                .as("not enabled: no archive")
                .doesNotContainKeys("LLMOPS_RESULTS_S3_BUCKET", "AWS_ACCESS_KEY_ID");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("results.s3.enabled", true)))
                .as("enabled without a bucket")
                .hasMessageContaining("bucket");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("results.s3.endpoint", "minio:9000")))
                .hasMessageContaining("endpoint");
    }

    @Test
    void apiKeyHostsBecomeTheOperatorsAllowListOfSecretHosts() {
        Container operator = RenderedChart.render(Map.of(
                        "benchmark.apiKeyHosts[0]",
                        "api.openai.com",
                        "benchmark.apiKeyHosts[1]",
                        "*.inference.example"))
                .operatorContainer();

        assertThat(env(operator)).containsEntry("LLMOPS_BENCHMARK_API_KEY_HOSTS", "api.openai.com,*.inference.example");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("benchmark.apiKeyHosts[0]", "https://api.openai.com")))
                .hasMessageContaining("apiKeyHosts");
    }

    @Test
    void everyOperatorVariableOfTheChartIsASettingOfTheOperator() {
        Set<String> settings = new TreeSet<>();
        mappingSettings("llmops", OperatorConfig.class, settings);
        for (Method producer : LeaderElection.class.getDeclaredMethods()) {
            for (Parameter parameter : producer.getParameters()) {
                Optional.ofNullable(parameter.getAnnotation(ConfigProperty.class))
                        .ifPresent(p -> settings.add(p.name()));
            }
        }
        Set<String> variables = settings.stream()
                .map(s -> s.toUpperCase().replaceAll("[^A-Z0-9]", "_"))
                .collect(Collectors.toSet());

        Container operator = RenderedChart.render(
                        Map.of("sglang.runtimeClassName", "nvidia", "benchmark.apiKeyHosts[0]", "api.example"))
                .operatorContainer();
        assertThat(operator.getEnv())
                .extracting(EnvVar::getName)
                .filteredOn(name -> name.startsWith("LLMOPS_"))
                .hasSize(7)
                .allSatisfy(name -> assertThat(variables).contains(name));
    }

    @Test
    void valuesBecomeTheOperatorsEnvironment() {
        RenderedChart chart = RenderedChart.render(Map.of(
                "image.tag", "1.2.3",
                "sglang.image", "lmsysorg/sglang:v0.5.19-cu130",
                "sglang.runtimeClassName", "nvidia",
                "logLevel", "DEBUG",
                "watchNamespaces[0]", "team-a",
                "watchNamespaces[1]", "team-b",
                "leaderElection.leaseName", "llm-operator",
                "replicaCount", 2));
        Container operator = chart.operatorContainer();

        assertThat(chart.deployment().getSpec().getReplicas()).isEqualTo(2);
        assertThat(operator.getImage()).isEqualTo("ghcr.io/llmops-dev/llm-serving-operator:1.2.3");
        assertThat(env(operator))
                .containsEntry("LLMOPS_SGLANG_IMAGE", "lmsysorg/sglang:v0.5.19-cu130")
                .containsEntry("LLMOPS_SGLANG_RUNTIME_CLASS_NAME", "nvidia")
                .containsEntry("LLMOPS_RUNNER_IMAGE", "ghcr.io/llmops-dev/llm-serving-operator:1.2.3")
                .containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", "team-a,team-b")
                .containsEntry("LLMOPS_LEADER_ELECTION_LEASE_NAME", "llm-operator")
                .containsEntry("QUARKUS_LOG_LEVEL", "DEBUG");
        assertThat(operator.getEnv())
                .filteredOn(e -> e.getName().equals("LLMOPS_LEADER_ELECTION_LEASE_NAMESPACE"))
                .singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath())
                        .isEqualTo("metadata.namespace"));

        assertThat(env(RenderedChart.render(Map.of("runner.image", "registry.example/runner:7"))
                        .operatorContainer()))
                .containsEntry("LLMOPS_RUNNER_IMAGE", "registry.example/runner:7");
    }

    @Test
    void jvmOptionsReachTheOperatorsJvmOnlyWhenSet() {
        assertThat(env(RenderedChart.render(Map.of()).operatorContainer()))
                .containsEntry("JDK_JAVA_OPTIONS", "-XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20");
        assertThat(env(RenderedChart.render(Map.of("jvmOptions", "-Xss512k")).operatorContainer()))
                .containsEntry("JDK_JAVA_OPTIONS", "-Xss512k");
        assertThat(env(RenderedChart.render(Map.of("jvmOptions", "")).operatorContainer()))
                .doesNotContainKey("JDK_JAVA_OPTIONS");
    }

    @Test
    void serviceMonitorOnlyWhenEnabled() {
        assertThat(RenderedChart.render(Map.of()).ofKind("ServiceMonitor")).isEmpty();

        RenderedChart chart = RenderedChart.render(Map.of(
                "metrics.serviceMonitor.enabled",
                true,
                "metrics.serviceMonitor.labels.release",
                "kube-prometheus-stack"));
        HasMetadata monitor = chart.ofKind("ServiceMonitor").findFirst().orElseThrow();
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
        String yaml = new KubernetesSerialization().asYaml(monitor);
        assertThat(yaml).contains("path: \"/q/metrics\"", "port: \"http\"");
        assertThat(chart.ofKind("Service"))
                .singleElement()
                .satisfies(s -> assertThat(s.getMetadata().getName()).isEqualTo(FULLNAME + "-metrics"));
    }

    @Test
    void byDefaultTheOperatorWatchesAndIsGrantedItsReleaseNamespaceOnly() {
        RenderedChart chart = RenderedChart.render(Map.of());

        assertThat(env(chart.operatorContainer())).containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", NAMESPACE);
        assertThat(chart.all(ClusterRoleBinding.class).map(b -> b.getRoleRef().getName()))
                .containsExactly(FULLNAME + "-cluster");
        assertThat(chart.all(RoleBinding.class)
                        .map(b -> b.getMetadata().getNamespace() + "/"
                                + b.getRoleRef().getName()))
                .containsExactlyInAnyOrder(NAMESPACE + "/" + FULLNAME, NAMESPACE + "/" + FULLNAME + "-leader-election");
        List<RenderedChart.ScopedRule> granted = chart.grantedRules();
        assertThat(granted)
                .anySatisfy(r -> assertThat(r.permits(NAMESPACE, "apps", "deployments", "create"))
                        .isTrue());
        assertThat(granted)
                .noneSatisfy(r -> assertThat(r.permits("kube-system", "apps", "deployments", "create"))
                        .isTrue());
        assertThat(granted)
                .as("cluster-wide: reading Nodes only")
                .filteredOn(r -> r.namespace() == null)
                .extracting(r -> r.rule().getResources() + " " + r.rule().getVerbs())
                .containsExactly("[nodes] [get]");
        assertThat(RenderedChart.render(Map.of(), "team-x").grantedRules())
                .anySatisfy(r -> assertThat(r.permits("team-x", "batch", "jobs", "create"))
                        .isTrue());
    }

    @Test
    void allNamespacesIsAnExplicitClusterRoleAndBinding() {
        RenderedChart chart = RenderedChart.render(Map.of("watchAllNamespaces", true));

        assertThat(env(chart.operatorContainer()))
                .containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", "JOSDK_ALL_NAMESPACES");

        assertThat(chart.find(ClusterRole.class, FULLNAME)).isPresent();
        assertThat(chart.all(ClusterRoleBinding.class).map(b -> b.getRoleRef().getName()))
                .containsExactlyInAnyOrder(FULLNAME, FULLNAME + "-cluster");
        assertThat(chart.all(Role.class).map(r -> r.getMetadata().getName()))
                .containsExactly(FULLNAME + "-leader-election");
        assertThat(chart.grantedRules())
                .anySatisfy(r -> assertThat(r.permits("any-namespace", "apps", "deployments", "create"))
                        .isTrue());
    }

    @Test
    void watchedNamespacesGetARoleEachAndNothingNamespacedClusterWide() {
        RenderedChart chart =
                RenderedChart.render(Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        assertThat(chart.find(ClusterRole.class, FULLNAME)).isEmpty();
        assertThat(chart.all(ClusterRoleBinding.class).map(b -> b.getRoleRef().getName()))
                .containsExactly(FULLNAME + "-cluster");
        assertThat(chart.all(RoleBinding.class)
                        .map(b -> b.getMetadata().getNamespace() + "/"
                                + b.getRoleRef().getName()))
                .containsExactlyInAnyOrder(
                        "team-a/" + FULLNAME, "team-b/" + FULLNAME, NAMESPACE + "/" + FULLNAME + "-leader-election");
        List<RenderedChart.ScopedRule> granted = chart.grantedRules();
        assertThat(granted)
                .anySatisfy(r -> assertThat(r.permits("team-b", "batch", "jobs", "create"))
                        .isTrue());
        assertThat(granted)
                .noneSatisfy(r -> assertThat(r.permits("team-c", "batch", "jobs", "create"))
                        .isTrue());
        assertThat(granted)
                .anySatisfy(r -> assertThat(r.permits(null, "", "nodes", "get")).isTrue());
    }

    @Test
    void rbacIsExplicitAndReadsSecretsOnlyByNameInWatchedNamespaces() {
        for (Map<String, Object> values : List.<Map<String, Object>>of(
                Map.of(), Map.of("watchNamespaces[0]", "team-a"), Map.of("watchAllNamespaces", true))) {
            RenderedChart chart = RenderedChart.render(values);
            List<PolicyRule> rules = Stream.concat(
                            chart.all(ClusterRole.class).flatMap(r -> r.getRules().stream()),
                            chart.all(Role.class).flatMap(r -> r.getRules().stream()))
                    .toList();

            assertThat(rules).isNotEmpty().allSatisfy(rule -> {
                assertThat(rule.getApiGroups()).doesNotContain("*");
                assertThat(rule.getResources()).doesNotContain("*");
                assertThat(rule.getVerbs()).isNotEmpty().doesNotContain("*");
                assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
                boolean status = rule.getResources().stream().anyMatch(r -> r.contains("/"));
                boolean main = rule.getResources().stream().anyMatch(r -> !r.contains("/"));
                assertThat(status && main)
                        .as("subresources in their own rules: " + rule.getResources())
                        .isFalse();
            });
            assertThat(rules)
                    .as("Secrets are read one by one, never listed or watched, so no Secret is cached")
                    .filteredOn(r -> r.getResources().contains("secrets"))
                    .singleElement()
                    .satisfies(r -> assertThat(r.getVerbs()).containsExactly("get"));
            if (!values.containsKey("watchAllNamespaces")) {
                assertThat(chart.all(ClusterRole.class).flatMap(r -> r.getRules().stream()))
                        .as("no cluster-wide Secret access unless every namespace is watched")
                        .noneSatisfy(r -> assertThat(r.getResources()).contains("secrets"));
            }
            assertThat(rules)
                    .filteredOn(r -> r.getResources().stream().anyMatch(s -> s.endsWith("/status")))
                    .allSatisfy(r -> assertThat(r.getVerbs()).doesNotContain("create", "delete", "list", "watch"));
            assertThat(chart.all(ClusterRole.class).flatMap(r -> r.getRules().stream()))
                    .noneSatisfy(r -> assertThat(r.getResources()).contains("leases"));
            assertThat(chart.all(Role.class)
                            .filter(r -> r.getRules().stream()
                                    .anyMatch(rule -> rule.getResources().contains("leases"))))
                    .singleElement()
                    .satisfies(r -> assertThat(r.getMetadata().getNamespace()).isEqualTo(NAMESPACE));
        }
    }

    @Test
    void invalidValuesAreRefusedWithTheFieldNamed() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("logLevel", "LOUD")))
                .hasMessageContaining("logLevel");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("watchNamespaces[0]", "Team_A")))
                .hasMessageContaining("watchNamespaces");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("http.port", 80))).hasMessageContaining("port");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("watchAllNamespaces", "yes")))
                .hasMessageContaining("watchAllNamespaces");
        assertThatThrownBy(
                        () -> RenderedChart.render(Map.of("watchAllNamespaces", true, "watchNamespaces[0]", "team-a")))
                .hasMessageContaining("watchNamespaces and watchAllNamespaces");
    }

    private static void assertProbe(Probe probe, String path) {
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }

    static Map<String, String> env(Container container) {
        return container.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    /** The property names of a config mapping: nested interfaces by their method names, in kebab case. */
    private static void mappingSettings(String prefix, Class<?> mapping, Set<String> settings) {
        for (Method method : mapping.getDeclaredMethods()) {
            String name = prefix + "."
                    + method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
            if (method.getReturnType().isInterface() && method.getReturnType().getEnclosingClass() == mapping) {
                mappingSettings(name, method.getReturnType(), settings);
            } else {
                settings.add(name);
            }
        }
    }

    private static String withDefault(Class<?> mapping, String method) throws NoSuchMethodException {
        return mapping.getMethod(method).getAnnotation(WithDefault.class).value();
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
