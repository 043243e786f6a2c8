package dev.llmops.serving.runner.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.runner.Statistics;
import org.junit.jupiter.api.Test;

/** The intended send times of rate stages. */
class ArrivalScheduleTest {

    @Test
    void constantArrivalsAreExactlyOneOverRApartOnTheAbsoluteSchedule() {
        ArrivalSchedule schedule = ArrivalSchedule.of(Arrival.CONSTANT, 3, 1);

        for (int k = 0; k < 3000; k++) {
            assertThat(schedule.nextOffsetNanos()).isEqualTo(Math.round(k * 1e9 / 3));
        }
    }

    @Test
    void poissonGapsFitTheExponentialAndRepeatWithTheSeed() {
        double rate = 40;
        double[] gaps = new double[2000];
        ArrivalSchedule schedule = ArrivalSchedule.of(Arrival.POISSON, rate, 7);
        ArrivalSchedule again = ArrivalSchedule.of(Arrival.POISSON, rate, 7);
        long previous = schedule.nextOffsetNanos();
        assertThat(previous).isZero();
        again.nextOffsetNanos();
        for (int i = 0; i < gaps.length; i++) {
            long next = schedule.nextOffsetNanos();
            assertThat(again.nextOffsetNanos()).isEqualTo(next);
            gaps[i] = (next - previous) / 1e9;
            previous = next;
        }

        assertThat(Statistics.ksDistanceFromExponential(gaps, rate))
                .isLessThan(Statistics.ksCriticalValue(gaps.length));
        assertThat(Statistics.ksDistanceFromExponential(gaps, rate * 1.3))
                .as("the check tells another rate apart")
                .isGreaterThan(Statistics.ksCriticalValue(gaps.length));
    }
}
