package dev.llmops.serving.modelserver;

import dev.llmops.serving.api.v1alpha1.ModelServer;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The API key a ModelServer's SGLang requires (spec.apiKeySecret), read from its Secret so the inference probe can
 * send it. The value stays in memory: it is never logged or written into a status.
 */
public final class ServerApiKey {

    /** Longer values are not an API key; the probe goes without and the server's 401 says why it fails. */
    static final int MAX_BYTES = 4096;

    private final KubernetesClient client;

    public ServerApiKey(KubernetesClient client) {
        this.client = client;
    }

    /** The key, or empty when the server requires none or its Secret or key cannot be read. */
    public Optional<String> of(ModelServer server) {
        SecretKeyReference ref = server.getSpec().apiKeySecret;
        if (ref == null) {
            return Optional.empty();
        }
        try {
            Secret secret = client.secrets()
                    .inNamespace(server.getMetadata().getNamespace())
                    .withName(ref.name)
                    .get();
            String encoded = secret == null || secret.getData() == null
                    ? null
                    : secret.getData().get(ref.key);
            if (encoded == null || encoded.length() > MAX_BYTES * 4 / 3 + 4) {
                return Optional.empty();
            }
            String key = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
            return key.isEmpty() ? Optional.empty() : Optional.of(key);
        } catch (KubernetesClientException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
