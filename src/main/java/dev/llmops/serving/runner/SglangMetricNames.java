package dev.llmops.serving.runner;

import java.util.List;

/**
 * The SGLang Prometheus metrics the runner reads, named exactly as the pinned SGLang release (0.5.18, the operator's
 * default image) exports them: counters by their {@code _total} sample name, gauges by their name.
 * {@code hack/sglang-metric-names.sh} extracts the release's names, and a test checks every name here against them.
 */
public final class SglangMetricNames {

    /** Counter: output tokens of finished requests (SGLang counts a request's tokens when it finishes). */
    public static final String GENERATION_TOKENS = "sglang:generation_tokens_total";
    /** Counter: speculative-decoding verify forward passes of finished requests; absent without speculation. */
    public static final String SPEC_VERIFY_CALLS = "sglang:spec_verify_calls_total";
    /** Counter: prompt tokens of finished requests, cached ones included. */
    public static final String PROMPT_TOKENS = "sglang:prompt_tokens_total";
    /** Counter: prompt tokens served from the prefix cache, one series per cache source. */
    public static final String CACHED_TOKENS = "sglang:cached_tokens_total";
    /** Gauge: requests in the running batch. */
    public static final String RUNNING_REQUESTS = "sglang:num_running_reqs";
    /** Gauge: requests waiting for a batch slot. */
    public static final String QUEUED_REQUESTS = "sglang:num_queue_reqs";
    /** Gauge: the fraction of the KV cache in use. */
    public static final String TOKEN_USAGE = "sglang:token_usage";
    /** Gauge: the prefix-cache hit rate of recent batches. */
    public static final String CACHE_HIT_RATE = "sglang:cache_hit_rate";
    /** Gauge: generation tokens/s of recent batches. */
    public static final String GENERATION_THROUGHPUT = "sglang:gen_throughput";
    /** Gauge: the mean acceptance length of recent batches (not used for figures: counters give the stage's). */
    public static final String SPEC_ACCEPT_LENGTH = "sglang:spec_accept_length";

    /** Every name above. */
    public static final List<String> ALL = List.of(
            GENERATION_TOKENS,
            SPEC_VERIFY_CALLS,
            PROMPT_TOKENS,
            CACHED_TOKENS,
            RUNNING_REQUESTS,
            QUEUED_REQUESTS,
            TOKEN_USAGE,
            CACHE_HIT_RATE,
            GENERATION_THROUGHPUT,
            SPEC_ACCEPT_LENGTH);

    private SglangMetricNames() {}
}
