package dev.llmops.serving.runner.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.contract.CapacityOutcome;
import dev.llmops.serving.api.contract.RunnerFlags;
import dev.llmops.serving.runner.output.CapacityReport;
import dev.llmops.serving.runner.output.Reports;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

/** The capacity search's decisions against servers whose verdicts are known, with no I/O. */
class CapacitySearchTest {

    /** Runs a search to its end; each probe meets the SLO when {@code meets} says so. */
    private static List<Double> search(CapacitySearch search, DoublePredicate meets) {
        List<Double> loads = new ArrayList<>();
        Optional<Double> load = search.next(0);
        while (load.isPresent()) {
            loads.add(load.get());
            boolean met = meets.test(load.get());
            search.record(new CapacitySearch.Verdict(load.get(), met, false, Reports.closedLoop(1, 1, 1)));
            load = search.next(0);
        }
        return loads;
    }

    @Test
    void concurrencyDoublesThenBisectsToOneStreamAndConfirmsTheBoundary() {
        CapacitySearch search = new CapacitySearch(CapacityMode.Concurrency, 0, 12, 1800);

        List<Double> loads = search(search, load -> load <= 24);

        assertThat(loads).containsExactly(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 24.0, 28.0, 26.0, 25.0, 24.0);
        assertThat(search.outcome()).isEqualTo(CapacityOutcome.Found);
        assertThat(search.highestMet()).isEqualTo(24);
        assertThat(search.reason()).contains("24 streams met the SLO in 2 probes", "25 streams missed it");
    }

    @Test
    void rateEndsWithinTheResolution() {
        CapacitySearch search = new CapacitySearch(CapacityMode.Rate, 1.234567, 20, 1800);

        List<Double> loads = search(search, load -> load <= 7.5);

        assertThat(loads.get(0)).isEqualTo(1.23);
        assertThat(search.outcome()).isEqualTo(CapacityOutcome.Found);
        assertThat(search.highestMet()).isBetween(7.5 / (1 + CapacitySearch.RATE_RESOLUTION), 7.5);
    }

    @Test
    void aBoundaryThatFailsItsReRunStepsDown() {
        CapacitySearch search = new CapacitySearch(CapacityMode.Concurrency, 0, 12, 1800);
        int[] probesAtFour = new int[1];

        search(search, load -> load < 4 || load == 4 && probesAtFour[0]++ == 0);

        assertThat(search.outcome()).isEqualTo(CapacityOutcome.Found);
        assertThat(search.highestMet()).isEqualTo(3);
        assertThat(search.verdicts())
                .extracting(CapacitySearch.Verdict::load)
                .containsExactly(1.0, 2.0, 4.0, 8.0, 6.0, 5.0, 4.0, 3.0, 3.0);
    }

    @Test
    void aServerThatMeetsTheSloAtTheHighestLoadIsFoundThere() {
        CapacitySearch concurrency = new CapacitySearch(CapacityMode.Concurrency, 0, 13, 1800);
        List<Double> streams = new ArrayList<>();
        Optional<Double> load = concurrency.next(0);
        while (load.isPresent()) {
            streams.add(load.get());
            int level = load.get().intValue();
            concurrency.record(
                    new CapacitySearch.Verdict(level, true, false, Reports.closedLoop(level, 10.0 * level, 1)));
            load = concurrency.next(0);
        }

        assertThat(streams)
                .as("the budget of 13 probes is just enough to double from 1 to the ceiling")
                .hasSize(13)
                .endsWith((double) RunnerFlags.MAX_CONCURRENCY_LEVEL);
        assertThat(concurrency.outcome()).as(concurrency.reason()).isEqualTo(CapacityOutcome.Found);
        assertThat(concurrency.reason()).contains("4096 streams, the highest load the runner probes");
        CapacityReport report = CapacityReport.of(CapacityMode.Concurrency, concurrency);
        assertThat(report.outcome()).isEqualTo("found");
        assertThat(report.maxConcurrency()).isEqualTo(RunnerFlags.MAX_CONCURRENCY_LEVEL);
        assertThat(report.outputThroughput())
                .as("the figures of the probe at the ceiling")
                .isEqualTo(40960.0);

        CapacitySearch rate = new CapacitySearch(CapacityMode.Rate, 100, 20, 1800);
        assertThat(search(rate, met -> true))
                .containsExactly(100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0, 12800.0, 25600.0, 51200.0, (double)
                        RunnerFlags.MAX_RATE);
        assertThat(rate.outcome()).as(rate.reason()).isEqualTo(CapacityOutcome.Found);
        assertThat(CapacityReport.of(CapacityMode.Rate, rate).maxRequestRate())
                .isEqualTo((double) RunnerFlags.MAX_RATE);
    }

    @Test
    void aSearchThatNeverMeetsTheSloSaysSo() {
        CapacitySearch concurrency = new CapacitySearch(CapacityMode.Concurrency, 0, 12, 1800);
        assertThat(search(concurrency, load -> false)).containsExactly(1.0);
        assertThat(concurrency.outcome()).isEqualTo(CapacityOutcome.NeverMet);
        assertThat(concurrency.reason()).contains("1 stream missed it");

        CapacitySearch rate = new CapacitySearch(CapacityMode.Rate, 4, 3, 1800);
        assertThat(search(rate, load -> false)).containsExactly(4.0, 2.0, 1.0);
        assertThat(rate.outcome()).isEqualTo(CapacityOutcome.NeverMet);
        assertThat(rate.boundary()).isNull();
    }

    @Test
    void theProbeAndTimeBudgetsBoundTheSearch() {
        CapacitySearch probes = new CapacitySearch(CapacityMode.Concurrency, 0, 4, 1800);
        assertThat(search(probes, load -> load <= 24)).hasSize(4);
        assertThat(probes.outcome()).isEqualTo(CapacityOutcome.BudgetExhausted);
        assertThat(probes.highestMet()).isEqualTo(8);
        assertThat(probes.reason()).contains("all 4 probes were used");

        CapacitySearch time = new CapacitySearch(CapacityMode.Concurrency, 0, 12, 60);
        time.record(new CapacitySearch.Verdict(1, true, false, Reports.closedLoop(1, 1, 1)));
        assertThat(time.next(60)).isEmpty();
        assertThat(time.outcome()).isEqualTo(CapacityOutcome.BudgetExhausted);
        assertThat(time.reason()).contains("60 s search budget");
    }

    @Test
    void aLuckyProbeAboveAMissedLoadDoesNotCount() {
        CapacitySearch search = new CapacitySearch(CapacityMode.Concurrency, 0, 12, 1800);
        for (double load : new double[] {1, 2, 4}) {
            search.record(new CapacitySearch.Verdict(load, load != 2, false, Reports.closedLoop(1, 1, 1)));
        }
        assertThat(search.highestMet()).isEqualTo(1);
        assertThat(search.next(0)).as("the boundary's re-run").contains(1.0);
    }
}
