package dev.llmops.serving.api.contract;

/**
 * Which rule chose the stage a run's peak is reported at, so a reader knows whether the peak's latency is usable: the
 * best stage within the SLO, else the saturation knee, else the highest throughput measured whatever its latency.
 */
public enum PeakRule {
    /** The highest output tokens/s among the stages that met the SLO. */
    WithinSlo,
    /** The saturation knee: the last level before throughput stopped rising while latency or queueing grew. */
    Knee,
    /** The highest output tokens/s of any stage: no SLO was met or given and the sweep showed no knee. */
    HighestThroughput
}
