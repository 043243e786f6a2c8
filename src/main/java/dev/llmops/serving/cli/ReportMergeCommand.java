package dev.llmops.serving.cli;

import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.runner.output.CompactSummaryWriter;
import dev.llmops.serving.runner.output.ConsoleProgress;
import dev.llmops.serving.runner.shard.Shard;
import dev.llmops.serving.runner.shard.ShardMerge;
import dev.llmops.serving.runner.shard.ShardResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Merges the results of {@code bench --shard I/N} into the one result a single runner would have written, with the
 * code the operator merges a sharded BenchmarkRun with: for load spread over machines without Kubernetes.
 */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Merge the results of the N shards of one bench run into one result, as the operator merges a sharded"
                    + " BenchmarkRun: percentiles from the merged histograms, throughput over the union of the stage"
                    + " windows, SLO attainment and goodput over all requests, the samples of all shards. Prints the"
                    + " table; --json-out, --summary-file and --samples-out write what bench writes, for report"
                    + " and report compare. e.g.",
            "  host-a$ llm-serving-operator bench --url URL --model M --shard 0/2 --rendezvous :7070 \\",
            "            --shard-out s0.gz",
            "  host-b$ llm-serving-operator bench --url URL --model M --shard 1/2 --rendezvous host-a:7070 \\",
            "            --shard-out s1.gz",
            "  llm-serving-operator report merge s0.gz s1.gz --json-out merged.json",
            "Each SHARD is a file bench --shard-out wrote, or a shard's captured stdout, whose last shard line is read."
                    + " Results that are not every shard of one run once are refused, naming the shard. Exit codes: 0"
                    + " merged, 2 unreadable or mismatched results, 1 an output could not be written."
        })
public class ReportMergeCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    /** A shard's file: its line of at most 2 MiB, or its stdout's table and progress besides. */
    private static final int MAX_SHARD_FILE_BYTES = 16 * 1024 * 1024;

    @Spec
    CommandSpec spec;

    @Parameters(
            paramLabel = "SHARD",
            arity = "1.." + Shard.MAX_COUNT,
            converter = FileOptions.Readable.class,
            description = "A shard's result: the file of bench --shard-out, or the shard's captured stdout.")
    List<Path> shards;

    @Option(
            names = "--json-out",
            paramLabel = "FILE",
            converter = FileOptions.WritableOrStdout.class,
            description = "Write the merged JSON report here (- for stdout, which then carries nothing else).")
    String jsonOut;

    @Option(
            names = "--summary-file",
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Write the merged compact summary (at most 4096 bytes) here.")
    Path summaryFile;

    @Option(
            names = "--samples-out",
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Write the merged samples here as gzipped JSON, for report compare.")
    Path samplesOut;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ShardMerge.Merged merged;
        try {
            List<ShardResult> results = new ArrayList<>();
            for (Path shard : shards) {
                results.add(read(shard));
            }
            merged = ShardMerge.merge(results);
        } catch (IllegalArgumentException e) {
            err.println("report merge: " + e.getMessage().replaceAll("\\s*\\R\\s*", " "));
            return INVALID_INPUT;
        }
        boolean jsonToStdout = "-".equals(jsonOut);
        new ConsoleProgress(jsonToStdout ? err : out, err, merged.report().slo() != null).table(merged.report());
        merged.notes().forEach(note -> err.println("warning: " + note));
        err.flush();
        try {
            if (jsonToStdout) {
                out.println(merged.report().toJson());
                out.flush();
            } else if (jsonOut != null) {
                Files.writeString(Path.of(jsonOut), merged.report().toJson(), StandardCharsets.UTF_8);
            }
            if (summaryFile != null) {
                Files.writeString(summaryFile, CompactSummaryWriter.write(merged.report()), StandardCharsets.UTF_8);
            }
            if (samplesOut != null && merged.samples() != null) {
                Files.write(samplesOut, merged.samples().toGzip());
            }
        } catch (IOException e) {
            err.println("report merge: cannot write: " + e.getMessage());
            return ReportOutput.WRITE_FAILED;
        }
        return 0;
    }

    /** A shard's result from its gzipped file, or from the last shard line of its captured stdout. */
    private static ShardResult read(Path file) {
        byte[] bytes;
        try {
            bytes = BoundedInput.bytes(file, MAX_SHARD_FILE_BYTES);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            if (bytes.length > 1 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
                return ShardResult.fromGzip(bytes);
            }
            ShardResult result = ShardResult.fromLog(new String(bytes, StandardCharsets.UTF_8));
            if (result == null) {
                throw new IllegalArgumentException("no line begins with '" + ShardResult.LOG_PREFIX.strip() + "'");
            }
            return result;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
