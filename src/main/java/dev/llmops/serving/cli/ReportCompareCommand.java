package dev.llmops.serving.cli;

import dev.llmops.serving.api.contract.SampleSet;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BaselineComparison;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ReferenceSpec;
import dev.llmops.serving.common.options.FileOptions;
import dev.llmops.serving.comparison.PairedSpeedups;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.report.BenchResult;
import dev.llmops.serving.report.HtmlReport;
import dev.llmops.serving.report.MarkdownReport;
import dev.llmops.serving.report.RunLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Compares two results of {@code bench --json-out} as the operator compares a BenchmarkRun with its baseline, with the
 * same code: without a cluster, a laptop's two runs get the same paired speedups, intervals, verdicts and output
 * agreement a run's status would show.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Compare two results of bench --json-out as a BenchmarkRun is compared with its baseline.",
            "Shows per stage the paired speedup of CANDIDATE over BASELINE (above 1: the candidate was faster)"
                    + " with its 95 %% interval and the verdict (faster, slower or no significant difference), and the"
                    + " agreement of the greedy outputs when both ran bench --quality. The intervals, verdicts and"
                    + " agreement need each run's per-request samples, the files bench --samples-out wrote; without"
                    + " them only the ratios of the two results' figures are shown. e.g.",
            "  llm-serving-operator bench ... --json-out a.json --samples-out a.samples",
            "  llm-serving-operator bench ... --json-out b.json --samples-out b.samples",
            "  llm-serving-operator report compare a.json b.json \\",
            "    --baseline-samples a.samples --candidate-samples b.samples > compare.md",
            "Two results of different workloads (another --dataset, --seed, --max-tokens, sampling or prompts) sent"
                    + " different requests and are refused, naming what differs. Exit codes: 0 compared, 2 unreadable"
                    + " or incomparable input, 1 the report could not be written."
        })
public class ReportCompareCommand implements Callable<Integer> {

    private static final int INVALID_INPUT = 2;
    /** The paired comparison takes a tolerance below 1, so below 100 %. */
    private static final int MAX_TOLERANCE_PERCENT = 99;
    /** A bench result is a few hundred KiB at most: 128 stages of figures, 1,024 prompts and warnings. */
    private static final int MAX_RESULT_BYTES = 8 * 1024 * 1024;

    /** What the comparison is written as. */
    enum OutputFormat {
        md,
        html
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "BASELINE",
            converter = FileOptions.Readable.class,
            description = "The result compared with, as bench --json-out wrote it.")
    Path baseline;

    @Parameters(
            index = "1",
            paramLabel = "CANDIDATE",
            converter = FileOptions.Readable.class,
            description = "The result compared, as bench --json-out wrote it.")
    Path candidate;

    @Option(
            names = "--baseline-samples",
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "The per-request samples of BASELINE's run, as bench --samples-out wrote them.")
    Path baselineSamples;

    @Option(
            names = "--candidate-samples",
            paramLabel = "FILE",
            converter = FileOptions.Readable.class,
            description = "The per-request samples of CANDIDATE's run, as bench --samples-out wrote them.")
    Path candidateSamples;

    @Option(
            names = "--tolerance-percent",
            paramLabel = "P",
            defaultValue = "" + ReferenceSpec.DEFAULT_TOLERANCE_PERCENT,
            description = "A stage is faster (slower) only when its throughput's 95 %% interval lies wholly above"
                    + " (below) no change and its speedup moved by at least P %%, as with spec.reference"
                    + ".tolerancePercent of a BenchmarkRun; 0 to 99. Default: ${DEFAULT-VALUE}.")
    int tolerancePercent;

    @Option(
            names = "--format",
            defaultValue = "md",
            description = "md (a Markdown table for a pull request) or html (a page with the speedups as an"
                    + " error-bar chart). Default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            converter = FileOptions.Writable.class,
            description = "Where to write the comparison (default: standard output).")
    Path output;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (tolerancePercent < 0 || tolerancePercent > MAX_TOLERANCE_PERCENT) {
            err.println("report compare: --tolerance-percent must be 0 to " + MAX_TOLERANCE_PERCENT + ", got "
                    + tolerancePercent);
            return INVALID_INPUT;
        }
        BenchResult before;
        BenchResult after;
        SamplesRead beforeSamples;
        SamplesRead afterSamples;
        try {
            before = result(baseline);
            after = result(candidate);
            refuseDifferentWorkloads(before, after);
            beforeSamples = samples(baselineSamples, "--baseline-samples", before, baseline);
            afterSamples = samples(candidateSamples, "--candidate-samples", after, candidate);
        } catch (IllegalArgumentException e) {
            err.println("report compare: " + e.getMessage().replaceAll("\\s*\\R\\s*", " "));
            return INVALID_INPUT;
        }
        BenchmarkRun baselineRun = before.run();
        BenchmarkRun candidateRun = after.run();
        String baselineName = baselineRun.getMetadata().getName();
        if (baselineName.equals(candidateRun.getMetadata().getName())) {
            baselineName = "baseline " + baselineName;
            baselineRun.getMetadata().setName(baselineName);
            candidateRun
                    .getMetadata()
                    .setName("candidate " + candidateRun.getMetadata().getName());
        }
        BaselineComparison comparison = PairedSpeedups.compare(
                baselineName,
                candidateRun.getStatus(),
                baselineRun.getStatus(),
                afterSamples,
                beforeSamples,
                tolerancePercent / 100.0);
        candidateRun.getStatus().comparison = comparison;
        String report = format == OutputFormat.html
                ? HtmlReport.render(candidateRun, Optional.of(baselineRun))
                : MarkdownReport.render(candidateRun, Optional.of(baselineRun));
        return ReportOutput.write(spec, "report compare", report, output);
    }

    private static BenchResult result(Path file) {
        try {
            return new RunLoader().loadBenchResult(BoundedInput.text(file, MAX_RESULT_BYTES), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Two workloads sent different requests, which no pairing can compare: say which fields differ. */
    private void refuseDifferentWorkloads(BenchResult before, BenchResult after) {
        String hint = ": run bench on both servers with the same --dataset, --seed, --max-tokens, --temperature,"
                + " --top-p, --ignore-eos and prompts";
        List<String> differences = before.workloadDifferences(after);
        if (!differences.isEmpty()) {
            throw new IllegalArgumentException(baseline + " and " + candidate + " measured different workloads ("
                    + String.join(", ", differences) + "), so their requests cannot be paired" + hint);
        }
        if (before.workload() != null
                && after.workload() != null
                && !before.workload().equals(after.workload())) {
            throw new IllegalArgumentException(baseline + " and " + candidate + " measured different workloads"
                    + " (workload " + before.workload() + " vs " + after.workload() + ", though their "
                    + String.join(", ", before.workloadFields().keySet()) + " agree: the dataset's lengths or file,"
                    + " or --quality-max-tokens differ), so their requests cannot be paired" + hint);
        }
    }

    /**
     * The samples of a result's run, or why there are none. Samples of another workload than the result's are refused:
     * they belong to another run, and pairing them would compare requests the result never sent.
     */
    private static SamplesRead samples(Path file, String option, BenchResult result, Path resultFile) {
        if (file == null) {
            return SamplesRead.missing("no " + option + " given");
        }
        SampleSet samples;
        try {
            byte[] gzip = BoundedInput.bytes(file, SampleSet.MAX_ENCODED_CHARS);
            samples = SampleSet.fromGzip(gzip);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + option + " " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    option + " " + file + " is not what bench --samples-out writes: " + e.getMessage(), e);
        }
        if (result.workload() != null && !result.workload().equals(samples.workload())) {
            throw new IllegalArgumentException(option + " " + file + " holds the samples of another workload ("
                    + samples.workload() + ") than " + resultFile + " (" + result.workload() + "): pass the file"
                    + " --samples-out wrote in the same bench run as --json-out " + resultFile);
        }
        return SamplesRead.of(samples);
    }
}
