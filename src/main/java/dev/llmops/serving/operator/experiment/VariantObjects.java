package dev.llmops.serving.operator.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelCacheSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantSpec;
import dev.llmops.serving.operator.compatibility.CompatibilityCheck;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The names and the desired form of what an experiment creates (its dependents add the owner reference): each
 * variant's ModelServer (spec.server with the variant laid over it) and BenchmarkRun (spec.benchmark aimed at it), the
 * model cache claim they share, and the winner's server.
 */
public final class VariantObjects {

    private static final ObjectMapper COPIER = new ObjectMapper();
    private static final String MODEL_CACHE_SUFFIX = "-model-cache";

    private VariantObjects() {}

    /** The name of the variant's ModelServer and BenchmarkRun; admission keeps it within 63 characters. */
    static String childName(ServingExperiment experiment, String variant) {
        return experiment.getMetadata().getName() + "-" + variant;
    }

    /** A deep copy through JSON (null stays null): changing the copy leaves the original as it was. */
    static <T> T copied(Object value, Class<T> type) {
        return COPIER.convertValue(value, type);
    }

    /** The winner's ModelServer is named after the experiment, so a route to it can be written before it ends. */
    static String winnerServerName(ServingExperiment experiment) {
        return experiment.getMetadata().getName();
    }

    static String modelCacheClaimName(ServingExperiment experiment) {
        return experiment.getMetadata().getName() + MODEL_CACHE_SUFFIX;
    }

    /** The variant the experiment compares every other with. */
    static String baseline(ServingExperiment experiment) {
        String named = experiment.getSpec().baseline;
        return named != null ? named : experiment.getSpec().variants.get(0).name;
    }

    static Optional<VariantSpec> variant(ServingExperiment experiment, String name) {
        return experiment.getSpec().variants.stream()
                .filter(v -> v.name.equals(name))
                .findFirst();
    }

    /** Each variant's ModelServer as the experiment would create it, by variant name, in spec order. */
    public static Map<String, ModelServer> servers(ServingExperiment experiment) {
        Map<String, ModelServer> servers = new LinkedHashMap<>();
        experiment
                .getSpec()
                .variants
                .forEach(variant ->
                        servers.put(variant.name, server(experiment, variant, childName(experiment, variant.name))));
        return servers;
    }

    /** The variant's ModelServer, named {@code name}. */
    static ModelServer server(ServingExperiment experiment, VariantSpec variant, String name) {
        ModelServer server = new ModelServer();
        server.setMetadata(metadata(experiment, variant.name, name));
        Optional.ofNullable(experiment.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(CompatibilityCheck.ALLOW_ANNOTATION))
                .ifPresent(allowed ->
                        server.getMetadata().setAnnotations(Map.of(CompatibilityCheck.ALLOW_ANNOTATION, allowed)));
        server.setSpec(overlay(experiment, variant));
        return server;
    }

    /** The variant's BenchmarkRun: the experiment's benchmark against its server, paired with the baseline's run. */
    static BenchmarkRun run(ServingExperiment experiment, VariantSpec variant, Optional<String> baselineRun) {
        String name = childName(experiment, variant.name);
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(metadata(experiment, variant.name, name));
        BenchmarkRunSpec spec = copied(experiment.getSpec().benchmark, BenchmarkRunSpec.class);
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = name;
        spec.baseline = baselineRun.orElse(null);
        run.setSpec(spec);
        return run;
    }

    /** The claim every variant mounts when spec.server asks the operator for a cache of a size. */
    static PersistentVolumeClaim modelCacheClaim(ServingExperiment experiment) {
        ModelCacheSpec cache = experiment.getSpec().server.modelCache;
        return new PersistentVolumeClaimBuilder()
                .withMetadata(new ObjectMetaBuilder()
                        .withName(modelCacheClaimName(experiment))
                        .withNamespace(experiment.getMetadata().getNamespace())
                        .withLabels(labels(experiment, null))
                        .build())
                .withNewSpec()
                .withAccessModes("ReadWriteMany")
                .withStorageClassName(cache.storageClassName)
                .withNewResources()
                .withRequests(Map.of("storage", new Quantity(cache.size)))
                .endResources()
                .endSpec()
                .build();
    }

    static boolean sharesCreatedCache(ServingExperiment experiment) {
        ModelCacheSpec cache = experiment.getSpec().server.modelCache;
        return cache != null && cache.claimName == null && cache.size != null;
    }

    /**
     * spec.server with the variant laid over it as a strategic merge patch would: fields the variant gives replace the
     * server's, env merges by name, resources field by field; a cache the operator creates becomes the shared claim.
     */
    static ModelServerSpec overlay(ServingExperiment experiment, VariantSpec variant) {
        ModelServerSpec spec = copied(experiment.getSpec().server, ModelServerSpec.class);
        if (variant.image != null) {
            spec.image = variant.image;
        }
        if (variant.speculativeDecoding != null) {
            spec.speculativeDecoding = variant.speculativeDecoding;
        }
        if (variant.parallelism != null) {
            spec.parallelism = variant.parallelism;
        }
        if (variant.extraArgs != null) {
            spec.extraArgs = new ArrayList<>(variant.extraArgs);
        }
        if (variant.env != null) {
            spec.env = mergedByName(spec.env, variant.env);
        }
        if (variant.resources != null) {
            if (variant.resources.cpu != null) {
                spec.resources.cpu = variant.resources.cpu;
            }
            if (variant.resources.memory != null) {
                spec.resources.memory = variant.resources.memory;
            }
        }
        if (sharesCreatedCache(experiment)) {
            spec.modelCache.claimName = modelCacheClaimName(experiment);
            spec.modelCache.size = null;
            spec.modelCache.storageClassName = null;
        }
        return copied(spec, ModelServerSpec.class);
    }

    private static List<EnvVar> mergedByName(List<EnvVar> server, List<EnvVar> variant) {
        Map<String, EnvVar> merged = new LinkedHashMap<>();
        server.forEach(e -> merged.put(e.getName(), e));
        variant.forEach(e -> merged.put(e.getName(), e));
        return new ArrayList<>(merged.values());
    }

    private static ObjectMeta metadata(ServingExperiment experiment, String variant, String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(experiment.getMetadata().getNamespace())
                .withLabels(labels(experiment, variant))
                .build();
    }

    private static Map<String, String> labels(ServingExperiment experiment, String variant) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.MANAGED_BY, Labels.OPERATOR);
        labels.put(Labels.PART_OF, "llm-serving");
        labels.put(Labels.EXPERIMENT, experiment.getMetadata().getName());
        if (variant != null) {
            labels.put(Labels.VARIANT, variant);
        }
        return labels;
    }
}
