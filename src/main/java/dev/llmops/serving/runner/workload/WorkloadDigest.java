package dev.llmops.serving.runner.workload;

import dev.llmops.serving.runner.plan.BenchmarkConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Names what decides the content of each request of a run — endpoint, dataset (a trace's window of requests, not
 * their timestamps), seed, sampling (with ignore_eos), the single-request prompts and the quality stage's length — in
 * 16 hex characters, so two runs are paired request by request only when they sent the same requests.
 */
public final class WorkloadDigest {

    public static final int HEX_CHARS = 16;

    private WorkloadDigest() {}

    /** The first {@value #HEX_CHARS} hex characters of the SHA-256 of {@code config}'s canonical workload text. */
    public static String of(BenchmarkConfig config) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        update(sha256, "endpoint", config.endpoint().name().toLowerCase(Locale.ROOT));
        update(sha256, "dataset", config.dataset().name().toLowerCase(Locale.ROOT));
        update(sha256, "input_len", String.valueOf(config.inputLength()));
        update(sha256, "output_len", String.valueOf(config.outputLength()));
        if (config.dataset() == Dataset.RANDOM && (config.inputLength() == null || config.outputLength() == null)) {
            update(sha256, "random_lengths", RandomLengths.DEFAULT.toString());
        }
        update(sha256, "shared_prefix", String.valueOf(config.sharedPrefix()));
        if (config.sessions() != null) {
            update(sha256, "sessions", config.sessions().toString());
        }
        ShareGptDataset shareGpt = config.shareGpt();
        if (shareGpt != null) {
            for (int i = 0; i < shareGpt.size(); i++) {
                update(sha256, "conversation", shareGpt.replyTokens(i) + " " + shareGpt.prompt(i));
            }
        }
        TraceReplay trace = config.trace();
        if (trace != null) {
            for (TraceDataset.Request request : trace.requests()) {
                update(
                        sha256,
                        "trace_request",
                        request.inputLength() + " " + request.outputLength() + " "
                                + Arrays.toString(request.hashIds()));
            }
        }
        update(sha256, "seed", String.valueOf(config.seed()));
        update(sha256, "temperature", String.valueOf(config.temperature()));
        update(sha256, "top_p", String.valueOf(config.topP()));
        update(sha256, "max_tokens", String.valueOf(config.maxTokens()));
        update(sha256, "ignore_eos", String.valueOf(config.ignoreEos()));
        for (String prompt : config.prompts()) {
            update(sha256, "prompt", prompt);
        }
        update(sha256, "quality_max_tokens", String.valueOf(config.qualityMaxTokens()));
        return HexFormat.of().formatHex(sha256.digest()).substring(0, HEX_CHARS);
    }

    /** One field as {@code name length:value}, so no two different workloads write the same text. */
    private static void update(MessageDigest sha256, String name, String value) {
        sha256.update((name + " " + value.length() + ":" + value + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
