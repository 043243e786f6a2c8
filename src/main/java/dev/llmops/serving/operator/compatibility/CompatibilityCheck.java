package dev.llmops.serving.operator.compatibility;

import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.modelserver.AcceleratorSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a ModelServer against the compatibility table before anything is scheduled: which rules its extra arguments,
 * speculative algorithm and image break on its accelerator, and which of those the override annotation allows.
 */
public final class CompatibilityCheck {

    /** Rule names, comma-separated, that an expert allows for this server (e.g. their image carries the fix). */
    public static final String ALLOW_ANNOTATION = ApiGroup.GROUP + "/allow-incompatible";

    private final CompatibilityTable table;

    public CompatibilityCheck(CompatibilityTable table) {
        this.table = table;
    }

    /** A rule the server breaks, with what of its spec matched and where, in words a user reads. */
    public record Breach(CompatibilityRule rule, String matched, String where) {

        /** One sentence naming the rule, the flag or field, the architecture, the fix and the source. */
        public String describe() {
            return "rule %s: %s %s: %s; fix: %s; source: %s"
                    .formatted(rule.name(), matched, where, rule.message(), rule.fix(), rule.source());
        }
    }

    /** The rules broken and not allowed, and the names of those the annotation allowed. */
    public record Result(List<Breach> breaches, List<String> allowed) {}

    /**
     * @param image the image the server runs (its spec's, or the operator's default when the spec names none)
     */
    public Result check(ModelServer server, String image) {
        Set<String> allowedNames = allowedNames(server.getMetadata().getAnnotations());
        List<Breach> breaches = new ArrayList<>();
        List<String> allowed = new ArrayList<>();
        for (Breach breach : breaches(server.getSpec(), image)) {
            if (allowedNames.contains(breach.rule().name())) {
                allowed.add(breach.rule().name());
            } else {
                breaches.add(breach);
            }
        }
        return new Result(breaches, allowed);
    }

    /** Every rule the spec breaks, allowed or not, in the table's order. */
    public List<Breach> breaches(ModelServerSpec spec, String image) {
        Optional<CompatibilityTable.Architecture> architecture = architecture(spec.accelerator);
        Optional<SglangRelease> release = SglangRelease.ofImage(image);
        Map<String, String> flags = lastValues(spec.extraArgs);
        String algorithm = spec.speculativeDecoding == null ? null : spec.speculativeDecoding.algorithm;
        List<Breach> breaches = new ArrayList<>();
        for (CompatibilityRule rule : table.rules()) {
            if (!rule.computeMajors().isEmpty()
                    && architecture
                            .filter(a -> rule.computeMajors().contains(a.computeMajor()))
                            .isEmpty()) {
                continue;
            }
            if (rule.sglangVersions() != null
                    && release.filter(rule.sglangVersions()::contains).isEmpty()) {
                continue;
            }
            if (!rule.speculativeAlgorithms().isEmpty()
                    && (algorithm == null || !rule.speculativeAlgorithms().contains(algorithm))) {
                continue;
            }
            List<String> matched = new ArrayList<>();
            if (!rule.flags().isEmpty()) {
                Optional<String> flag = matchingFlag(rule, flags);
                if (flag.isEmpty()) {
                    continue;
                }
                matched.add("spec.extraArgs " + flag.get());
            }
            if (!rule.speculativeAlgorithms().isEmpty()) {
                matched.add("spec.speculativeDecoding.algorithm " + algorithm);
            }
            List<String> where = new ArrayList<>();
            if (!rule.computeMajors().isEmpty()) {
                where.add("on %s (compute capability %d.x)"
                        .formatted(architecture.get().name(), architecture.get().computeMajor()));
            }
            if (rule.sglangVersions() != null) {
                where.add("with SGLang " + release.get() + " (" + image + ")");
            }
            breaches.add(new Breach(rule, String.join(" with ", matched), String.join(" ", where)));
        }
        return breaches;
    }

    private Optional<CompatibilityTable.Architecture> architecture(AcceleratorSpec accelerator) {
        if (accelerator == null) {
            return Optional.empty();
        }
        if (accelerator.computeMajor != null) {
            return table.architecture(accelerator.computeMajor);
        }
        return accelerator.product == null ? Optional.empty() : table.architectureOfProduct(accelerator.product);
    }

    private static Optional<String> matchingFlag(CompatibilityRule rule, Map<String, String> flags) {
        for (CompatibilityRule.FlagCondition condition : rule.flags()) {
            for (String name : condition.names()) {
                if (flags.containsKey(name) && condition.matchesValue(flags.get(name))) {
                    String value = flags.get(name);
                    return Optional.of(value == null ? name : name + " " + value);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Each flag of the arguments with the value it ends with, as SGLang's parser sees them: {@code --flag value} and
     * {@code --flag=value}; the last occurrence wins; a flag followed by another flag has no value.
     */
    static Map<String, String> lastValues(List<String> args) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                continue;
            }
            int equals = arg.indexOf('=');
            if (equals > 0) {
                flags.put(arg.substring(0, equals), arg.substring(equals + 1));
            } else {
                boolean valued = i + 1 < args.size() && !args.get(i + 1).startsWith("--");
                flags.put(arg, valued ? args.get(i + 1) : null);
            }
        }
        return flags;
    }

    private static Set<String> allowedNames(Map<String, String> annotations) {
        String value = annotations == null ? null : annotations.get(ALLOW_ANNOTATION);
        if (value == null) {
            return Set.of();
        }
        return Arrays.stream(value.split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }
}
