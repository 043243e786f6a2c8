package dev.llmops.serving.operator.compatibility;

import java.util.List;

/**
 * One entry of the compatibility table: what it matches, where it holds, and what to tell the user. A rule matches when
 * every condition it gives holds; an absent condition holds everywhere.
 *
 * @param flags any one of these must appear in spec.extraArgs
 * @param speculativeAlgorithms spec.speculativeDecoding.algorithm must be one of these
 * @param computeMajors the accelerator's compute capability major must be one of these
 * @param sglangVersions the official image's SGLang release must lie in this range
 * @param source the tracker links users follow
 * @param verifiedIn where in the pinned release's source the fact was checked
 */
public record CompatibilityRule(
        String name,
        List<FlagCondition> flags,
        List<String> speculativeAlgorithms,
        List<Integer> computeMajors,
        VersionRange sglangVersions,
        String message,
        String fix,
        String source,
        String verifiedIn) {

    public CompatibilityRule {
        flags = flags == null ? List.of() : List.copyOf(flags);
        speculativeAlgorithms = speculativeAlgorithms == null ? List.of() : List.copyOf(speculativeAlgorithms);
        computeMajors = computeMajors == null ? List.of() : List.copyOf(computeMajors);
    }

    /**
     * An SGLang flag under any of its names; with {@code values} it matches only those values, with
     * {@code valuesOtherThan} only values not listed, with neither any value.
     */
    public record FlagCondition(List<String> names, List<String> values, List<String> valuesOtherThan) {

        public FlagCondition {
            names = names == null ? List.of() : List.copyOf(names);
            values = values == null ? List.of() : List.copyOf(values);
            valuesOtherThan = valuesOtherThan == null ? List.of() : List.copyOf(valuesOtherThan);
        }

        boolean matchesValue(String value) {
            if (!values.isEmpty()) {
                return values.contains(value);
            }
            return valuesOtherThan.isEmpty() || (value != null && !valuesOtherThan.contains(value));
        }
    }

    /** SGLang releases from {@code from} through {@code through}, both included, as dotted numbers. */
    public record VersionRange(String from, String through) {

        boolean contains(SglangRelease release) {
            return release.compareTo(SglangRelease.parse(from)) >= 0
                    && release.compareTo(SglangRelease.parse(through)) <= 0;
        }
    }
}
