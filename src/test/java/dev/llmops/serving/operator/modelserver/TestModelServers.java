package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.config.OperatorConfig;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/** ModelServers from the shipped examples, and an operator configuration, for tests that build desired objects. */
final class TestModelServers {

    static final String DEFAULT_IMAGE = "lmsysorg/sglang:v0.5.18-cu130";

    private TestModelServers() {}

    static ModelServer example(String file, String namespace) {
        try {
            ModelServer server = new KubernetesSerialization()
                    .unmarshal(Files.readString(Path.of("deploy/examples", file)), ModelServer.class);
            server.getMetadata().setNamespace(namespace);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operator's default {@code llmops.stalled-recheck}. */
    static final Duration STALLED_RECHECK = Duration.ofMinutes(2);

    /**
     * The operator configuration as defaults give it, with the given runtime class; other settings are not used here.
     */
    static OperatorConfig config(Optional<String> runtimeClassName) {
        OperatorConfig.Sglang sglang = proxy(OperatorConfig.Sglang.class, method -> switch (method) {
            case "image" -> DEFAULT_IMAGE;
            case "runtimeClassName" -> runtimeClassName;
            default -> throw new UnsupportedOperationException(method);
        });
        return proxy(OperatorConfig.class, method -> {
            return switch (method) {
                case "sglang" -> sglang;
                case "stalledRecheck" -> STALLED_RECHECK;
                default -> throw new UnsupportedOperationException(method);
            };
        });
    }

    /** The operator configuration with NetworkPolicies enabled or not; other settings are not used here. */
    static OperatorConfig networkPolicies(boolean enabled) {
        OperatorConfig.NetworkPolicies networkPolicy =
                proxy(OperatorConfig.NetworkPolicies.class, method -> switch (method) {
                    case "enabled" -> enabled;
                    default -> throw new UnsupportedOperationException(method);
                });
        return proxy(OperatorConfig.class, method -> switch (method) {
            case "networkPolicy" -> networkPolicy;
            default -> throw new UnsupportedOperationException(method);
        });
    }

    private static <T> T proxy(Class<T> type, Function<String, Object> answers) {
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> answers.apply(method.getName())));
    }
}
