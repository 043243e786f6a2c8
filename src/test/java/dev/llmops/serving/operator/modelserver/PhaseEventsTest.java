package dev.llmops.serving.operator.modelserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerStatus;
import org.junit.jupiter.api.Test;

/** Which phase changes of a ModelServer are recorded as Events. */
class PhaseEventsTest {

    @Test
    void aHealthyStartRecordsOnlyArrivingAtReady() {
        assertThat(ServerTransitionEvents.worthAnEvent(null, status(ModelServerPhase.Pending, null)))
                .isFalse();
        assertThat(ServerTransitionEvents.worthAnEvent(
                        ModelServerPhase.Pending, status(ModelServerPhase.Scheduling, null)))
                .isFalse();
        assertThat(ServerTransitionEvents.worthAnEvent(
                        ModelServerPhase.Scheduling, status(ModelServerPhase.Loading, null)))
                .isFalse();
        assertThat(ServerTransitionEvents.worthAnEvent(ModelServerPhase.Loading, status(ModelServerPhase.Ready, null)))
                .isTrue();
    }

    @Test
    void aDiagnosedMomentaryPhaseIsRecorded() {
        assertThat(ServerTransitionEvents.worthAnEvent(
                        ModelServerPhase.Pending, status(ModelServerPhase.Scheduling, "InsufficientGPUs")))
                .isTrue();
    }

    @Test
    void troubleAndLeavingReadyAreRecorded() {
        assertThat(ServerTransitionEvents.worthAnEvent(
                        ModelServerPhase.Loading, status(ModelServerPhase.Failed, "CudaOutOfMemory")))
                .isTrue();
        assertThat(ServerTransitionEvents.worthAnEvent(ModelServerPhase.Ready, status(ModelServerPhase.Degraded, null)))
                .isTrue();
        assertThat(ServerTransitionEvents.worthAnEvent(ModelServerPhase.Ready, status(ModelServerPhase.Pending, null)))
                .isTrue();
    }

    private static ModelServerStatus status(ModelServerPhase phase, String diagnosisReason) {
        ModelServerStatus status = new ModelServerStatus();
        status.phase = phase;
        if (diagnosisReason != null) {
            status.diagnosis = new Diagnosis();
            status.diagnosis.reason = diagnosisReason;
        }
        return status;
    }
}
