package dev.llmops.serving.report;

import static dev.llmops.serving.report.CsvReport.figure;
import static dev.llmops.serving.report.CsvReport.line;
import static dev.llmops.serving.report.CsvReport.text;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.ConfidenceInterval;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageResult;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.StageSpeedup;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A ServingExperiment as CSV for spreadsheets (RFC 4180), guarded against formula injection as {@link CsvReport} is:
 * one row per variant and stage, the variant's columns repeated on each of its rows, then the stage's figures from the
 * variant's run and its paired comparison with the baseline. A variant without stages (its server failed, or no runs
 * were given and it has no comparison) is one row with empty stage columns.
 */
public final class ExperimentCsvReport {

    private ExperimentCsvReport() {}

    public static String render(ExperimentResults results) {
        List<String> header = new ArrayList<>(List.of(
                "experiment",
                "variant",
                "phase",
                "winner",
                "time_to_ready_s",
                "time_to_failure_s",
                "diagnosis_reason",
                "quality_suspect",
                "exact_match_share"));
        header.addAll(CsvReport.stageHeader());
        header.addAll(List.of(
                "spec_accept_length",
                "throughput_speedup",
                "throughput_speedup_low",
                "throughput_speedup_high",
                "tpot_p50_speedup",
                "tpot_p50_speedup_low",
                "tpot_p50_speedup_high",
                "verdict"));
        StringBuilder csv = new StringBuilder(line(header));
        Winner winner = results.experiment().getStatus().winner;
        for (VariantResult variant : results.variants()) {
            List<String> variantCells = List.of(
                    text(results.name()),
                    text(variant.name),
                    variant.phase == null ? "" : variant.phase.name(),
                    String.valueOf(winner != null && variant.name != null && variant.name.equals(winner.name)),
                    figure(variant.timeToReadySeconds),
                    figure(variant.timeToFailureSeconds),
                    text(variant.diagnosis == null ? null : variant.diagnosis.reason),
                    variant.qualitySuspect == null ? "" : variant.qualitySuspect.toString(),
                    figure(results.comparison(variant)
                            .map(c -> c.quality)
                            .map(q -> q.exactMatchShare)
                            .orElse(null)));
            for (StageRow stage : stages(results, variant)) {
                List<String> cells = new ArrayList<>(variantCells);
                cells.addAll(
                        stage.result() == null
                                ? CsvReport.stageHeader().stream()
                                        .map(column -> "")
                                        .toList()
                                : CsvReport.stageCells(stage.result()));
                cells.addAll(speedupCells(stage));
                csv.append(line(cells));
            }
        }
        return csv.toString();
    }

    /** A stage of a variant: what its run measured and what its comparison recorded, either possibly absent. */
    private record StageRow(StageResult result, StageSpeedup speedup) {}

    /**
     * The stages the variant's run measured, in the order they ran, then those only its comparison names; one empty
     * row when there are neither.
     */
    private static List<StageRow> stages(ExperimentResults results, VariantResult variant) {
        Map<String, StageSpeedup> speedups = new LinkedHashMap<>();
        results.comparison(variant)
                .ifPresent(c ->
                        c.stages.stream().filter(s -> s.name != null).forEach(s -> speedups.putIfAbsent(s.name, s)));
        List<StageRow> rows = new ArrayList<>();
        List<StageResult> measured =
                results.run(variant.name).map(run -> run.getStatus().stages).orElse(List.of());
        for (StageResult stage : measured) {
            rows.add(new StageRow(stage, stage.name == null ? null : speedups.remove(stage.name)));
        }
        speedups.values().forEach(speedup -> {
            StageResult named = new StageResult();
            named.name = speedup.name;
            rows.add(new StageRow(named, speedup));
        });
        if (rows.isEmpty()) {
            rows.add(new StageRow(null, null));
        }
        return rows;
    }

    private static List<String> speedupCells(StageRow stage) {
        Optional<StageSpeedup> speedup = Optional.ofNullable(stage.speedup());
        Double accepted = stage.result() != null && stage.result().specAcceptLength != null
                ? stage.result().specAcceptLength
                : speedup.map(s -> s.specAcceptLength).orElse(null);
        Optional<ConfidenceInterval> throughput = speedup.map(s -> s.throughputSpeedupInterval);
        Optional<ConfidenceInterval> tpot = speedup.map(s -> s.tpotP50SpeedupInterval);
        return List.of(
                figure(accepted),
                figure(speedup.map(s -> s.throughputSpeedup).orElse(null)),
                figure(throughput.map(i -> i.low).orElse(null)),
                figure(throughput.map(i -> i.high).orElse(null)),
                figure(speedup.map(s -> s.tpotP50Speedup).orElse(null)),
                figure(tpot.map(i -> i.low).orElse(null)),
                figure(tpot.map(i -> i.high).orElse(null)),
                speedup.map(s -> s.verdict).map(Enum::name).orElse(""));
    }
}
