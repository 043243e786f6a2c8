package dev.llmops.serving.api.contract;

/**
 * The bench runner's command-line flags, named once for the command that parses them and the operator that writes them
 * into a benchmark Job; compile-time constants, so picocli's {@code @Option(names = ...)} can use them.
 */
public final class RunnerFlags {

    public static final String URL = "--url";
    public static final String MODEL = "--model";
    public static final String API_KEY_ENV = "--api-key-env";
    public static final String ENDPOINT = "--endpoint";
    public static final String PROMPTS = "--prompts";
    public static final String PROMPTS_FILE = "--prompts-file";
    public static final String NO_SINGLE = "--no-single";
    public static final String DATASET = "--dataset";
    public static final String INPUT_LENGTH = "--input-len";
    public static final String OUTPUT_LENGTH = "--output-len";
    public static final String IGNORE_EOS = "--ignore-eos";
    public static final String CONCURRENCY = "--concurrency";
    public static final String NO_SWEEP = "--no-sweep";
    public static final String RATE = "--rate";
    public static final String ARRIVAL = "--arrival";
    public static final String TRACE_SPEED = "--trace-speed";
    public static final String TRACE_WINDOW = "--trace-window";
    public static final String THINK_TIME = "--think-time";
    public static final String SESSION_HEADER = "--session-header";
    public static final String MAX_CONCURRENCY = "--max-concurrency";
    public static final String SLO_TTFT = "--slo-ttft-p99-ms";
    public static final String SLO_TPOT = "--slo-tpot-p99-ms";
    public static final String SLO_ITL = "--slo-itl-p99-ms";
    public static final String SLO_E2E = "--slo-e2e-p99-ms";
    public static final String SLO_ATTAINMENT = "--slo-attainment";
    public static final String FIND_CAPACITY = "--find-capacity";
    public static final String MAX_PROBES = "--max-probes";
    public static final String MAX_SEARCH_SECONDS = "--max-search-seconds";
    public static final String REQUESTS_PER_LEVEL = "--requests-per-level";
    public static final String DURATION_PER_LEVEL = "--duration-per-level";
    public static final String WARMUP = "--warmup";
    public static final String WARMUP_MAX_TOKENS = "--warmup-max-tokens";
    public static final String MAX_TOKENS = "--max-tokens";
    public static final String TEMPERATURE = "--temperature";
    public static final String TOP_P = "--top-p";
    public static final String TIMEOUT = "--timeout";
    public static final String NO_CONTINUOUS_USAGE = "--no-continuous-usage";
    public static final String SEED = "--seed";
    public static final String JSON_OUT = "--json-out";
    public static final String SUMMARY_FILE = "--summary-file";
    public static final String REQUESTS_OUT = "--requests-out";
    public static final String METRICS_URL = "--metrics-url";
    /** The most {@link #METRICS_URL} flags one run takes. */
    public static final int MAX_METRICS_URLS = 256;

    public static final String QUALITY = "--quality";
    public static final String QUALITY_MAX_TOKENS = "--quality-max-tokens";
    public static final String SAMPLES_LOG = "--samples-log";
    public static final String SAMPLES_OUT = "--samples-out";
    public static final String SHARD = "--shard";
    public static final String RENDEZVOUS = "--rendezvous";
    public static final String SHARD_WAIT = "--shard-wait";
    public static final String SHARD_OUT = "--shard-out";
    /** How long, by default, shards wait for each other at a stage, in seconds. */
    public static final int DEFAULT_SHARD_WAIT_SECONDS = 600;
    /** The most {@link #CONCURRENCY} levels and {@link #RATE} rates one run takes together. */
    public static final int MAX_LEVELS = 64;
    /** The highest closed-loop level, {@link #MAX_CONCURRENCY} and capacity probe, in streams. */
    public static final int MAX_CONCURRENCY_LEVEL = 4096;
    /** The highest {@link #RATE} and rate probe, in requests per second. */
    public static final int MAX_RATE = 100000;
    /** The most {@link #MAX_PROBES} a capacity search takes. */
    public static final int MAX_MAX_PROBES = 64;
    /** The most {@link #MAX_SEARCH_SECONDS} a capacity search takes. */
    public static final int MAX_MAX_SEARCH_SECONDS = 86400;
    /** The most turns a session of {@code --dataset sessions} has, and a stage reports. */
    public static final int MAX_SESSION_TURNS = 64;
    /** A user's pause of {@link #THINK_TIME} is drawn exponentially and cut at this many times the mean. */
    public static final int MAX_THINK_TIME_MEANS = 10;
    /** The most {@link #QUALITY_MAX_TOKENS} a quality request takes. */
    public static final int MAX_QUALITY_MAX_TOKENS = 4096;

    /** Separates the values of a list flag: {@code --concurrency 8,16}. */
    public static final String LIST_SEPARATOR = ",";

    private RunnerFlags() {}
}
