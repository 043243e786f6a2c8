package dev.llmops.serving.operator.benchmark.comparison;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.DerivedNames;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.SummaryParser;
import dev.llmops.serving.operator.toolkit.Owners;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps a run's per-request samples in a ConfigMap it owns, and reads another run's back for a comparison. Not a
 * dependent resource: its content exists once, when the finished Job's log is read, and is never reconciled again.
 * Anyone who may create ConfigMaps in the namespace may create one of the same name, with an owner reference to the
 * run: such a ConfigMap is never adopted, and samples are read back only when their SHA-256 equals the one the
 * operator recorded in the run's status when it wrote them.
 */
public class SampleStore {

    public static final String KEY = "samples.json.gz";
    private static final String SUFFIX = "-samples";

    private final KubernetesClient client;

    /** Where a run's samples were kept and their digest, or why they could not be kept. */
    public record Kept(String configMap, String sha256, String refusal) {

        static Kept refused(String refusal) {
            return new Kept(null, null, refusal);
        }
    }

    public SampleStore(KubernetesClient client) {
        this.client = client;
    }

    /** {@code <run>-samples}; a name too long for a ConfigMap is shortened and made unique with a hash. */
    public static String name(String runName) {
        return DerivedNames.fit(runName, SUFFIX, DerivedNames.SUBDOMAIN_MAX);
    }

    /**
     * Creates the run's ConfigMap. One left by an earlier attempt of the same reconcile holds the very same bytes (the
     * same Job's log) and is kept; any other of that name is not the operator's and is refused, never overwritten.
     */
    public Kept store(BenchmarkRun run, SampleSet samples) {
        Map<String, String> labels = new HashMap<>();
        if (run.getMetadata().getLabels() != null) {
            labels.putAll(run.getMetadata().getLabels());
        }
        labels.put(Labels.MANAGED_BY, Labels.OPERATOR);
        byte[] gzip = samples.toGzip();
        String encoded = Base64.getEncoder().encodeToString(gzip);
        String name = name(run.getMetadata().getName());
        ConfigMap configMap = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(labels)
                .withOwnerReferences(Owners.controllerReference(run))
                .endMetadata()
                .withImmutable(true)
                .addToBinaryData(KEY, encoded)
                .build();
        try {
            client.resource(configMap).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            ConfigMap existing = configMap(run.getMetadata().getNamespace(), name);
            boolean earlierAttempt = existing != null
                    && existing.getBinaryData() != null
                    && encoded.equals(existing.getBinaryData().get(KEY));
            if (!earlierAttempt) {
                return Kept.refused("ConfigMap " + name + " already exists and was not written by the operator for"
                        + " this run's samples; delete it (or name the run differently) and create the run again");
            }
        }
        return new Kept(name, sha256(gzip), null);
    }

    /**
     * The samples a run's status names, or why they cannot be used. A missing, changed or unreadable ConfigMap is an
     * answer; any other API error is thrown, so the reconcile is retried instead of comparing without samples for
     * good. {@code sha256} null (a run finished before digests were recorded) reads the ConfigMap unchecked.
     */
    public SamplesRead read(String namespace, String name, String sha256) {
        Stored stored = stored(namespace, name);
        if (stored.problem() != null) {
            return stored.problem();
        }
        try {
            return verified(Base64.getDecoder().decode(stored.base64()), sha256, "ConfigMap " + name);
        } catch (IllegalArgumentException e) {
            return SamplesRead.rejected("ConfigMap " + name + " holds unreadable samples: "
                    + SummaryParser.abbreviate(e.getMessage(), 200));
        }
    }

    /** The gzip bytes of the samples a run's status names, as the operator wrote them; empty when they are not. */
    public Optional<byte[]> gzip(String namespace, String name, String sha256) {
        Stored stored = stored(namespace, name);
        if (stored.problem() != null) {
            return Optional.empty();
        }
        try {
            byte[] gzip = Base64.getDecoder().decode(stored.base64());
            return written(gzip, sha256) ? Optional.of(gzip) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Samples from {@code source} (a ConfigMap, an archived record), read when their SHA-256 is the one the operator
     * recorded ({@code sha256} null reads them unchecked).
     */
    public static SamplesRead verified(byte[] gzip, String sha256, String source) {
        if (!written(gzip, sha256)) {
            return SamplesRead.rejected(source + " does not hold the samples the operator wrote"
                    + " (their SHA-256 differs from the run's status.samplesSha256)");
        }
        try {
            return SamplesRead.of(SampleDecoding.decode(() -> SampleSet.fromGzip(gzip)));
        } catch (IllegalArgumentException e) {
            return SamplesRead.rejected(
                    source + " holds unreadable samples: " + SummaryParser.abbreviate(e.getMessage(), 200));
        }
    }

    /** Whether {@code gzip} are the bytes whose SHA-256 the operator recorded; unchecked without a recorded one. */
    private static boolean written(byte[] gzip, String sha256) {
        return sha256 == null || sha256.equals(sha256(gzip));
    }

    /** A samples ConfigMap's encoded content, or why it has none that may be read. */
    private record Stored(String base64, SamplesRead problem) {}

    private Stored stored(String namespace, String name) {
        ConfigMap configMap = configMap(namespace, name);
        if (configMap == null) {
            return new Stored(null, SamplesRead.missing("ConfigMap " + name + " does not exist"));
        }
        String encoded = configMap.getBinaryData() == null
                ? null
                : configMap.getBinaryData().get(KEY);
        if (encoded == null) {
            return new Stored(null, SamplesRead.missing("ConfigMap " + name + " has no binaryData key " + KEY));
        }
        if (encoded.length() > SampleSet.MAX_ENCODED_CHARS) {
            return new Stored(
                    null,
                    SamplesRead.rejected("ConfigMap " + name + " holds more than " + SampleSet.MAX_ENCODED_CHARS
                            + " characters of samples"));
        }
        return new Stored(encoded, null);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private ConfigMap configMap(String namespace, String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get();
    }
}
