package dev.llmops.serving.operator.modelserver;

import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The API key a ModelServer's SGLang requires (spec.apiKeySecret), read from its Secret so the inference probe can
 * send it. The value stays in memory: it is never logged or written into a status. Read with one GET per reconcile of a
 * server with serving pods, not from an informer: caching Secrets would need list and watch on every Secret of the
 * watched namespaces and keep their values in the operator's memory, and a time-bound cache would probe with a rotated
 * key's old value.
 */
public final class ServerApiKey {

    /** Diagnosis reason when the Secret or its key does not exist. */
    public static final String NOT_FOUND = "ApiKeySecretNotFound";

    /** Longer values are not an API key; the probe goes without and the server's 401 says why it fails. */
    static final int MAX_BYTES = 4096;

    private final KubernetesClient client;

    /** The key to send, if any, and why there is none when the Secret or key named by the spec is missing. */
    public record Lookup(Optional<String> key, Optional<SpecValidator.Problem> missing) {
        static final Lookup NONE = new Lookup(Optional.empty(), Optional.empty());
    }

    public ServerApiKey(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The key, or none when the server requires none or its Secret cannot be read; a Secret or key that does not exist
     * is a problem naming both, since the probe (and the server's pods) cannot authenticate without it.
     */
    public Lookup of(ModelServer server) {
        SecretKeyReference ref = server.getSpec().apiKeySecret;
        if (ref == null) {
            return Lookup.NONE;
        }
        String namespace = server.getMetadata().getNamespace();
        try {
            Secret secret =
                    client.secrets().inNamespace(namespace).withName(ref.name).get();
            if (secret == null) {
                return missing("Secret " + ref.name + " does not exist in namespace " + namespace, ref);
            }
            String encoded = secret.getData() == null ? null : secret.getData().get(ref.key);
            if (encoded == null) {
                return missing("Secret " + ref.name + " has no key " + ref.key, ref);
            }
            if (encoded.length() > MAX_BYTES * 4 / 3 + 4) {
                return Lookup.NONE;
            }
            String key = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
            return key.isEmpty() ? Lookup.NONE : new Lookup(Optional.of(key), Optional.empty());
        } catch (KubernetesClientException | IllegalArgumentException e) {
            return Lookup.NONE;
        }
    }

    private static Lookup missing(String what, SecretKeyReference ref) {
        return new Lookup(
                Optional.empty(),
                Optional.of(new SpecValidator.Problem(
                        NOT_FOUND,
                        "spec.apiKeySecret",
                        "spec.apiKeySecret: " + what + ", so the server cannot start with its API key and the "
                                + "inference probe cannot authenticate: create Secret " + ref.name + " with key "
                                + ref.key + ", or fix spec.apiKeySecret")));
    }
}
