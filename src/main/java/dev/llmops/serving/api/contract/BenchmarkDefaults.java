package dev.llmops.serving.api.contract;

import java.util.Arrays;
import java.util.List;

/**
 * The one source of a benchmark's defaults, read by the BenchmarkRun CRD, the bench command and
 * the runner's configuration: each typed value, and beside it the same value as compile-time text for {@code @Default}
 * and picocli's {@code defaultValue}.
 */
public final class BenchmarkDefaults {

    public static final double TEMPERATURE = 0.6;
    public static final String TEMPERATURE_TEXT = "" + TEMPERATURE;

    public static final double TOP_P = 0.95;
    public static final String TOP_P_TEXT = "" + TOP_P;

    public static final int MAX_TOKENS = 4096;
    public static final String MAX_TOKENS_TEXT = "" + MAX_TOKENS;

    public static final int WARMUP_REQUESTS = 3;
    public static final String WARMUP_REQUESTS_TEXT = "" + WARMUP_REQUESTS;

    public static final int WARMUP_MAX_TOKENS = 256;
    public static final String WARMUP_MAX_TOKENS_TEXT = "" + WARMUP_MAX_TOKENS;

    /** max_tokens of each greedy request of the quality stage. */
    public static final int QUALITY_MAX_TOKENS = 256;

    public static final String QUALITY_MAX_TOKENS_TEXT = "" + QUALITY_MAX_TOKENS;

    public static final int REQUEST_TIMEOUT_SECONDS = 900;
    public static final String REQUEST_TIMEOUT_SECONDS_TEXT = "" + REQUEST_TIMEOUT_SECONDS;

    public static final long SEED = 1;
    public static final String SEED_TEXT = "" + SEED;

    /** Share of good requests a stage needs to meet the SLO when none is named. */
    public static final double SLO_ATTAINMENT = 0.95;

    public static final String SLO_ATTAINMENT_TEXT = "" + SLO_ATTAINMENT;

    /** Probes a capacity search may run. */
    public static final int MAX_PROBES = 12;

    public static final String MAX_PROBES_TEXT = "" + MAX_PROBES;

    /** Seconds after which a capacity search starts no more probes. */
    public static final int MAX_SEARCH_SECONDS = 1800;

    public static final String MAX_SEARCH_SECONDS_TEXT = "" + MAX_SEARCH_SECONDS;

    /**
     * The sweep's closed-loop levels, as the bench command's --concurrency takes them; {@link
     * RunPlan#concurrencyLevels} says when they apply.
     */
    public static final String CONCURRENCY_TEXT = "8,16,32,48,64";

    public static final String CONCURRENCY_JSON = "[" + CONCURRENCY_TEXT + "]";
    public static final List<Integer> CONCURRENCY =
            Arrays.stream(CONCURRENCY_TEXT.split(",")).map(Integer::valueOf).toList();

    private static final String CODE_PROMPT = "Write a Python quicksort implementation";
    private static final String SCIENCE_PROMPT = "Explain quantum entanglement";
    private static final String LONG_FORM_PROMPT = "Write a comprehensive guide to Redis data structures";
    /** The single-request prompts: a code, a science and a long-form prompt. */
    public static final List<String> PROMPTS = List.of(CODE_PROMPT, SCIENCE_PROMPT, LONG_FORM_PROMPT);

    public static final String PROMPTS_JSON =
            "[\"" + CODE_PROMPT + "\", \"" + SCIENCE_PROMPT + "\", \"" + LONG_FORM_PROMPT + "\"]";

    private BenchmarkDefaults() {}
}
