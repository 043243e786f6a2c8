package dev.llmops.serving.runner.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.PeakRule;
import dev.llmops.serving.runner.output.Reports;
import dev.llmops.serving.runner.output.StageReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The peak is reported where its latency is usable, and says which rule chose it. */
class PeakStageTest {

    private static final List<StageReport> QUEUEING_AT_48 = List.of(
            Reports.queueing(16, 765.7, 2670, 128.7),
            Reports.queueing(32, 1522.0, 2670, 128.8),
            Reports.queueing(48, 1281.0, 2680, 2780),
            Reports.queueing(64, 1537.0, 5300, 2780));

    @Test
    void withoutAnSloThePeakIsTheKneeNotTheHighestThroughputBehindAQueue() {
        PeakStage.Choice peak = PeakStage.choose(QUEUEING_AT_48, SaturationKnee.find(QUEUEING_AT_48), Slo.NONE)
                .orElseThrow();

        assertThat(peak.stage().name()).isEqualTo("c32");
        assertThat(peak.rule()).isEqualTo(PeakRule.Knee);
    }

    @Test
    void withoutAKneeThePeakIsTheHighestThroughput() {
        PeakStage.Choice peak = PeakStage.choose(QUEUEING_AT_48, null, Slo.NONE).orElseThrow();

        assertThat(peak.stage().name()).isEqualTo("c64");
        assertThat(peak.rule()).isEqualTo(PeakRule.HighestThroughput);
    }

    @Test
    void withAnSloThePeakIsTheBestStageThatMetIt() {
        Slo ttftUnderHalfASecond = new Slo(500.0, null, null, null, 0.9);
        List<StageReport> judged = List.of(
                Reports.withSloAttainment(QUEUEING_AT_48.get(0), 1.0),
                Reports.withSloAttainment(QUEUEING_AT_48.get(1), 0.95),
                Reports.withSloAttainment(QUEUEING_AT_48.get(2), 0.6),
                Reports.withSloAttainment(QUEUEING_AT_48.get(3), 0.5));

        PeakStage.Choice peak =
                PeakStage.choose(judged, 16, ttftUnderHalfASecond).orElseThrow();

        assertThat(peak.stage().name()).isEqualTo("c32");
        assertThat(peak.rule()).isEqualTo(PeakRule.WithinSlo);
    }

    @Test
    void anSloNoStageMetFallsBackToTheKnee() {
        Slo impossible = new Slo(1.0, null, null, null, 0.9);
        List<StageReport> judged = QUEUEING_AT_48.stream()
                .map(stage -> Reports.withSloAttainment(stage, 0.1))
                .toList();

        PeakStage.Choice peak = PeakStage.choose(judged, 32, impossible).orElseThrow();

        assertThat(peak.rule()).isEqualTo(PeakRule.Knee);
        assertThat(peak.stage().name()).isEqualTo("c32");
    }
}
