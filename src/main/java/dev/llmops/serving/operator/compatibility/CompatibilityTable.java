package dev.llmops.serving.operator.compatibility;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The compatibility rules and the GPU architectures they name, read from {@link #RESOURCE} once and checked when
 * read, so a broken table fails the tests that load it rather than the operator at run time.
 *
 * @param verifiedAgainst the SGLang release whose source each rule was checked against
 */
public record CompatibilityTable(
        String verifiedAgainst, List<Architecture> architectures, List<CompatibilityRule> rules) {

    public static final String RESOURCE = "/compatibility/sglang-accelerator-rules.yaml";

    /** At most as many rules as a ModelServer's status.allowedIncompatibilities can list. */
    public static final int MAX_RULES = 32;

    private static final Pattern RULE_NAME = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$");
    private static final Pattern FLAG = Pattern.compile("^--[a-z0-9][a-z0-9-]*$");

    /** A compute capability major, its architecture's name as users know it, and the GPU product labels it has. */
    public record Architecture(int computeMajor, String name, List<String> products) {

        public Architecture {
            products = products == null ? List.of() : List.copyOf(products);
        }
    }

    public CompatibilityTable {
        architectures = architectures == null ? List.of() : List.copyOf(architectures);
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    /** The table the operator ships, read on first use and kept. */
    public static CompatibilityTable bundled() {
        return Bundled.TABLE;
    }

    /** Reads and checks a table; throws naming the first mistake. */
    public static CompatibilityTable read(InputStream yaml) throws IOException {
        ObjectMapper mapper =
                new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        CompatibilityTable table = mapper.readValue(yaml, CompatibilityTable.class);
        table.check();
        return table;
    }

    /** The architecture of a compute capability major, if the table knows it. */
    public Optional<Architecture> architecture(int computeMajor) {
        return architectures.stream()
                .filter(a -> a.computeMajor() == computeMajor)
                .findFirst();
    }

    /** The architecture of a GPU product label, if the table lists the product. */
    public Optional<Architecture> architectureOfProduct(String product) {
        return architectures.stream()
                .filter(a -> a.products().contains(product))
                .findFirst();
    }

    private void check() {
        SglangRelease.parse(verifiedAgainst);
        Set<String> names = new HashSet<>();
        Set<Integer> majors = new HashSet<>();
        for (Architecture architecture : architectures) {
            require(majors.add(architecture.computeMajor()), "compute major listed twice: " + architecture);
            require(!blank(architecture.name()), "architecture without a name: " + architecture);
        }
        List<String> products = new ArrayList<>();
        architectures.forEach(a -> products.addAll(a.products()));
        require(products.size() == new HashSet<>(products).size(), "a product is listed under two architectures");
        require(!rules.isEmpty(), "the table has no rules");
        require(
                rules.size() <= MAX_RULES,
                "more than " + MAX_RULES + " rules, the most status.allowedIncompatibilities holds");
        for (CompatibilityRule rule : rules) {
            require(rule.name() != null && RULE_NAME.matcher(rule.name()).matches(), "bad rule name: " + rule.name());
            require(names.add(rule.name()), "rule name used twice: " + rule.name());
            String at = "rule " + rule.name() + ": ";
            require(
                    !rule.flags().isEmpty() || !rule.speculativeAlgorithms().isEmpty(),
                    at + "matches neither a flag nor a speculative algorithm");
            for (CompatibilityRule.FlagCondition flag : rule.flags()) {
                require(!flag.names().isEmpty(), at + "a flag condition without names");
                flag.names().forEach(n -> require(FLAG.matcher(n).matches(), at + "not a long flag: " + n));
                require(
                        flag.values().isEmpty() || flag.valuesOtherThan().isEmpty(),
                        at + "values and valuesOtherThan together");
            }
            rule.computeMajors()
                    .forEach(major -> require(architecture(major).isPresent(), at + "unknown compute major " + major));
            if (rule.sglangVersions() != null) {
                SglangRelease from = SglangRelease.parse(rule.sglangVersions().from());
                SglangRelease through =
                        SglangRelease.parse(rule.sglangVersions().through());
                require(from.compareTo(through) <= 0, at + "sglangVersions.from is after through");
            }
            require(!blank(rule.message()), at + "no message");
            require(!blank(rule.fix()), at + "no fix");
            require(rule.source() != null && rule.source().startsWith("https://"), at + "no source link");
            require(!blank(rule.verifiedIn()), at + "no verifiedIn: where the pinned release's source shows it");
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static void require(boolean holds, String mistake) {
        if (!holds) {
            throw new IllegalArgumentException("compatibility table " + RESOURCE + ": " + mistake);
        }
    }

    /** Holds the bundled table, read when first asked for. */
    private static final class Bundled {
        static final CompatibilityTable TABLE = load();

        private static CompatibilityTable load() {
            try (InputStream in = CompatibilityTable.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(RESOURCE + " is missing from the classpath");
                }
                return read(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
