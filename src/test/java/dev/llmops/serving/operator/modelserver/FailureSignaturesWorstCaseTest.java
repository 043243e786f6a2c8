package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.operator.modelserver.FailureSignatures.Signature;
import dev.llmops.serving.operator.toolkit.PodLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A complexity check, not a benchmark: a container's log must not be able to hold a reconciler thread, so matching a
 * signature takes time linear in the text whatever the text holds. For every row of both tables it builds the worst
 * inputs it can from the row's own patterns, at 16 KiB and at a full log tail, and fails on growth far beyond the 16x
 * of the size (a pattern that backtracks across the text grows 256x) or on a full tail that takes long to match.
 */
class FailureSignaturesWorstCaseTest {

    private static final int SMALL_CHARS = 16 * 1024;
    private static final int LARGE_CHARS = PodLogs.MAX_TAIL_BYTES;
    /** Four times the growth of linear matching: room for cache effects and a loaded machine, not for 256x. */
    private static final double MOST_GROWTH = 4.0 * LARGE_CHARS / SMALL_CHARS;
    /** What every signature's worst full tail may take together; one backtracking pattern took seconds to a minute. */
    private static final Duration CEILING = Duration.ofSeconds(1);

    private static final int WARM_UP_ROUNDS = 10;
    private static final int REPETITIONS = 9;
    private static final String PRINTABLE = IntStream.rangeClosed(' ', '~')
            .mapToObj(c -> String.valueOf((char) c))
            .collect(Collectors.joining());

    /** A text built to make one signature's matching slow, in both sizes. */
    private record WorstInput(Signature signature, String description, String small, String large) {}

    /** An input's fastest time of the repetitions, in each size. */
    private record Timing(WorstInput input, long smallNanos, long largeNanos) {
        double growth() {
            return (double) largeNanos / Math.max(1, smallNanos);
        }

        @Override
        public String toString() {
            return "%s, %s: %.3f ms at 16 KiB, %.3f ms at 256 KiB, %.1fx"
                    .formatted(
                            input.signature().reason(),
                            input.description(),
                            smallNanos / 1e6,
                            largeNanos / 1e6,
                            growth());
        }
    }

    @Test
    void everySignatureMatchesItsWorstInputsInTimeLinearInTheirLength() {
        List<WorstInput> inputs =
                signatures().flatMap(s -> worstInputs(s).stream()).toList();
        for (WorstInput input : inputs) {
            assertThat(FailureSignatures.find(List.of(input.signature()), input.large()))
                    .as(
                            "a worst input for %s matches nothing: %s",
                            input.signature().reason(), input.description())
                    .isEmpty();
        }
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            inputs.forEach(input -> FailureSignatures.find(List.of(input.signature()), input.small()));
        }

        long worstTailsNanos = 0;
        List<String> measured = new ArrayList<>();
        for (Signature signature : signatures().toList()) {
            Timing worst = inputs.stream()
                    .filter(input -> input.signature() == signature)
                    .map(FailureSignaturesWorstCaseTest::time)
                    .reduce((a, b) -> a.largeNanos() >= b.largeNanos() ? a : b)
                    .orElseThrow();
            measured.add(worst.toString());
            assertThat(worst.growth())
                    .as("growth from 16 KiB to 256 KiB of the slowest input: %s", worst)
                    .isLessThan(MOST_GROWTH);
            worstTailsNanos += worst.largeNanos();
        }
        assertThat(Duration.ofNanos(worstTailsNanos))
                .as("every signature's slowest full tail, together:%n%s", String.join("\n", measured))
                .isLessThan(CEILING);
    }

    @Test
    void noPatternHasAnUnboundedQuantifier() {
        List<String> unbounded = signatures()
                .flatMap(signature -> signature.linePatterns().stream())
                .map(Pattern::pattern)
                .filter(FailureSignaturesWorstCaseTest::hasUnboundedQuantifier)
                .toList();

        assertThat(unbounded).isEmpty();
    }

    private static Stream<Signature> signatures() {
        return Stream.concat(FailureSignatures.SCHEDULING.stream(), FailureSignatures.STARTUP.stream());
    }

    /**
     * For each of the signature's patterns and each of its alternatives: every proper prefix of a shortest text the
     * alternative matches, that is its start with no completing end, over and over, on one line (of which only the
     * start is matched), on lines of the most characters that are matched, and one per line. Each of the signature's
     * other patterns is matched on a line of its own first, so the search cannot stop before the near misses.
     */
    private static List<WorstInput> worstInputs(Signature signature) {
        List<WorstInput> inputs = new ArrayList<>();
        for (Pattern pattern : signature.linePatterns()) {
            String otherMatches = signature.linePatterns().stream()
                    .filter(other -> other != pattern)
                    .map(other -> shortestMatch(alternatives(other.pattern()).get(0)) + "\n")
                    .collect(Collectors.joining());
            for (String alternative : alternatives(pattern.pattern())) {
                String match = shortestMatch(alternative);
                assertThat(pattern.matcher(match).find())
                        .as("the test can build a match for %s; teach shortestMatch its syntax", alternative)
                        .isTrue();
                List<String> nearMisses = IntStream.range(1, match.length())
                        .mapToObj(end -> match.substring(0, end))
                        .toList();
                String spaced = String.join(" ", nearMisses) + " ";
                String lined = String.join("\n", nearMisses) + "\n";
                String what = "near misses of '" + match + "'";
                inputs.add(input(signature, what + " on one line", otherMatches, size -> repeated(spaced, size)));
                inputs.add(input(
                        signature,
                        what + " on longest lines",
                        otherMatches,
                        size -> repeated(repeated(spaced, FailureSignatures.MAX_LINE_CHARS) + "\n", size)));
                inputs.add(input(signature, what + " one per line", otherMatches, size -> repeated(lined, size)));
            }
        }
        return inputs;
    }

    private static WorstInput input(
            Signature signature, String description, String otherMatches, IntFunction<String> text) {
        return new WorstInput(
                signature,
                description,
                otherMatches + text.apply(SMALL_CHARS - otherMatches.length()),
                otherMatches + text.apply(LARGE_CHARS - otherMatches.length()));
    }

    private static String repeated(String text, int chars) {
        return text.repeat(chars / text.length() + 1).substring(0, chars);
    }

    /**
     * The fastest of the repetitions in each size, the two sizes taken in turn so a busy moment slows both; a full tail
     * slower than the ceiling fails at once rather than after every repetition.
     */
    private static Timing time(WorstInput input) {
        long small = Long.MAX_VALUE;
        long large = Long.MAX_VALUE;
        for (int repetition = 0; repetition < REPETITIONS; repetition++) {
            small = Math.min(small, nanos(input.signature(), input.small()));
            large = Math.min(large, nanos(input.signature(), input.large()));
            assertThat(Duration.ofNanos(large))
                    .as(
                            "one full tail of %s, %s (%.3f ms at 16 KiB)",
                            input.signature().reason(), input.description(), small / 1e6)
                    .isLessThan(CEILING);
        }
        return new Timing(input, small, large);
    }

    private static long nanos(Signature signature, String text) {
        long start = System.nanoTime();
        FailureSignatures.find(List.of(signature), text);
        return System.nanoTime() - start;
    }

    /** The regex's alternatives: split at each | outside groups and classes. */
    private static List<String> alternatives(String regex) {
        List<String> alternatives = new ArrayList<>();
        int start = 0;
        int position = 0;
        while (position < regex.length()) {
            if (regex.charAt(position) == '|') {
                alternatives.add(regex.substring(start, position));
                start = position + 1;
                position++;
            } else {
                position = atomEnd(regex, position);
            }
        }
        alternatives.add(regex.substring(start));
        return alternatives;
    }

    /**
     * A shortest text the regex matches, for the syntax the tables use: literals, escapes, classes, the dot, groups
     * and the quantifiers ?, *, + and {m,n}. An atom that stands for a set of characters becomes the first printable
     * one of them.
     */
    private static String shortestMatch(String regex) {
        StringBuilder text = new StringBuilder();
        int position = 0;
        while (position < regex.length()) {
            int atomEnd = atomEnd(regex, position);
            String atom = regex.substring(position, atomEnd);
            int quantifierEnd = quantifierEnd(regex, atomEnd);
            String sample = atom.startsWith("(")
                    ? shortestMatch(
                            alternatives(atom.substring(1, atom.length() - 1)).get(0))
                    : firstPrintableMatching(atom);
            text.append(sample.repeat(leastCount(regex.substring(atomEnd, quantifierEnd))));
            position = quantifierEnd;
        }
        return text.toString();
    }

    private static String firstPrintableMatching(String atom) {
        Pattern single = Pattern.compile(atom);
        return PRINTABLE
                .chars()
                .mapToObj(c -> String.valueOf((char) c))
                .filter(c -> single.matcher(c).matches())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no printable character matches " + atom));
    }

    private static int atomEnd(String regex, int start) {
        char first = regex.charAt(start);
        if (first == '\\') {
            return start + 2;
        }
        if (first == '[') {
            int position = start + 1;
            if (regex.charAt(position) == '^') {
                position++;
            }
            position++;
            while (regex.charAt(position) != ']') {
                position += regex.charAt(position) == '\\' ? 2 : 1;
            }
            return position + 1;
        }
        if (first == '(') {
            int depth = 0;
            int position = start;
            do {
                char c = regex.charAt(position);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                position = c == '(' || c == ')' ? position + 1 : atomEnd(regex, position);
            } while (depth > 0);
            return position;
        }
        return start + 1;
    }

    private static int quantifierEnd(String regex, int start) {
        if (start >= regex.length()) {
            return start;
        }
        int end = switch (regex.charAt(start)) {
            case '?', '*', '+' -> start + 1;
            case '{' -> regex.indexOf('}', start) + 1;
            default -> start;
        };
        boolean lazyOrPossessive = end > start && end < regex.length() && "?+".indexOf(regex.charAt(end)) >= 0;
        return lazyOrPossessive ? end + 1 : end;
    }

    private static int leastCount(String quantifier) {
        if (quantifier.isEmpty() || quantifier.startsWith("+")) {
            return 1;
        }
        if (quantifier.startsWith("{")) {
            return Integer.parseInt(quantifier.substring(1).split("[,}]")[0]);
        }
        return 0;
    }

    /** A *, a + or a {m,} outside classes and escapes: a gap that can reach across the whole line. */
    private static boolean hasUnboundedQuantifier(String regex) {
        int position = 0;
        while (position < regex.length()) {
            int atomEnd = atomEnd(regex, position);
            int quantifierEnd = quantifierEnd(regex, atomEnd);
            String quantifier = regex.substring(atomEnd, quantifierEnd);
            String atom = regex.substring(position, atomEnd);
            if (quantifier.startsWith("*") || quantifier.startsWith("+") || quantifier.matches("\\{\\d+,}.*")) {
                return true;
            }
            if (atom.startsWith("(") && hasUnboundedQuantifier(atom.substring(1, atom.length() - 1))) {
                return true;
            }
            position = quantifierEnd;
        }
        return false;
    }
}
