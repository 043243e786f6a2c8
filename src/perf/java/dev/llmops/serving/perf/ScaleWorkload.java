package dev.llmops.serving.perf;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionGroup;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelSpec;
import dev.llmops.serving.operator.config.OperatorConfig;
import dev.llmops.serving.operator.modelserver.ServerDeploymentDependent;
import dev.llmops.serving.operator.modelserver.ServerServiceDependent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The objects of the scale benchmark: ModelServers scaled to zero replicas (no kubelet runs, so pods would only add
 * scheduler noise), one BenchmarkRun waiting for each, and the children the operator makes of a ModelServer, built
 * by the operator's own desired-object code for the bare-client arm.
 */
final class ScaleWorkload {

    static final String NAMESPACE = "scale";

    /** The operator's defaults, as the chart sets them: the SGLang image of the config's default, no runtime class. */
    static final OperatorConfig CONFIG = new OperatorConfig() {
        @Override
        public Sglang sglang() {
            return new Sglang() {
                @Override
                public String image() {
                    return defaultOf(Sglang.class, "image");
                }

                @Override
                public Optional<String> runtimeClassName() {
                    return Optional.empty();
                }
            };
        }

        @Override
        public Runner runner() {
            return () -> defaultOf(Runner.class, "image");
        }

        @Override
        public Results results() {
            return () -> new Results.S3() {
                @Override
                public Optional<URI> endpoint() {
                    return Optional.empty();
                }

                @Override
                public Optional<String> bucket() {
                    return Optional.empty();
                }

                @Override
                public String prefix() {
                    return defaultOf(Results.S3.class, "prefix");
                }

                @Override
                public String region() {
                    return defaultOf(Results.S3.class, "region");
                }

                @Override
                public boolean pathStyle() {
                    return false;
                }

                @Override
                public Duration timeout() {
                    return Duration.ofSeconds(30);
                }
            };
        }

        @Override
        public Benchmark benchmark() {
            return new Benchmark() {
                @Override
                public Duration progressPoll() {
                    return Duration.parse(
                            "PT" + defaultOf(Benchmark.class, "progressPoll").toUpperCase());
                }

                @Override
                public Optional<List<String>> apiKeyHosts() {
                    return Optional.empty();
                }

                @Override
                public Retention retention() {
                    return new Retention() {
                        @Override
                        public Optional<Integer> ttlSecondsAfterFinished() {
                            return Optional.empty();
                        }

                        @Override
                        public Optional<Integer> keepLast() {
                            return Optional.empty();
                        }

                        @Override
                        public RetentionGroup groupBy() {
                            return RetentionGroup.valueOf(defaultOf(Retention.class, "groupBy"));
                        }
                    };
                }
            };
        }

        @Override
        public NetworkPolicies networkPolicy() {
            return () -> Boolean.parseBoolean(defaultOf(NetworkPolicies.class, "enabled"));
        }

        @Override
        public Duration stalledRecheck() {
            return Duration.parse(
                    "PT" + defaultOf(OperatorConfig.class, "stalledRecheck").toUpperCase());
        }
    };

    private ScaleWorkload() {}

    static String serverName(int index) {
        return "llm-%04d".formatted(index);
    }

    static ModelServer modelServer(int index) {
        ModelServer server = new ModelServer();
        server.setMetadata(new ObjectMetaBuilder()
                .withName(serverName(index))
                .withNamespace(NAMESPACE)
                .build());
        ModelServerSpec spec = new ModelServerSpec();
        spec.model = new ModelSpec();
        spec.model.path = "Qwen/Qwen3-8B";
        spec.accelerator.computeMajor = 10;
        spec.accelerator.gpusPerReplica = 1;
        spec.replicas = 0;
        server.setSpec(spec);
        return server;
    }

    static BenchmarkRun benchmarkRun(int index) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("bench-%04d".formatted(index))
                .withNamespace(NAMESPACE)
                .build());
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = serverName(index);
        run.setSpec(spec);
        return run;
    }

    /** The Deployment and Service the operator would make of the created server, owned by it as the operator does. */
    static List<HasMetadata> children(ModelServer created) {
        List<HasMetadata> children =
                List.of(ServerDeploymentDependent.desired(created, CONFIG), ServerServiceDependent.desired(created));
        children.forEach(child -> child.addOwnerReference(created));
        return children;
    }

    private static String defaultOf(Class<?> type, String method) {
        try {
            return type.getMethod(method).getAnnotation(WithDefault.class).value();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
