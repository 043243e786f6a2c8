package dev.llmops.serving.operator.experiment;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.modelserver.Diagnosis;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantResult;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantSpec;
import dev.llmops.serving.api.v1alpha1.servingexperiment.Winner;
import dev.llmops.serving.operator.toolkit.Conditions;
import dev.llmops.serving.operator.toolkit.StatusText;
import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An experiment's status as a function of what is observed (its variants' ModelServers, BenchmarkRuns and serving
 * pods) and the status it had, with the objects it should have next. The variants are taken baseline first, then in
 * spec order; a variant's server is created only while fewer than spec.parallelVariants variants hold the pool, and a
 * finished variant holds it until its serving pods are gone. A variant is never started twice: once its status says it
 * left Pending, only its own server and run decide what happens to it.
 */
final class ExperimentStatusReport {

    /** Phases after which a variant's server is no longer wanted. */
    static final Set<VariantPhase> FINISHED =
            EnumSet.of(VariantPhase.Succeeded, VariantPhase.Failed, VariantPhase.Skipped);

    /**
     * What the status is computed from: each variant's ModelServer and BenchmarkRun by variant name, the variants
     * whose server or serving pods still exist, and the time.
     */
    record Observation(
            Map<String, ModelServer> servers, Map<String, BenchmarkRun> runs, Set<String> holdingPool, Instant now) {

        /** Times are written with second precision, as Kubernetes writes its own. */
        Observation {
            now = now.truncatedTo(ChronoUnit.SECONDS);
        }
    }

    /**
     * The status, the variants whose server should run, the variants whose run should exist (created only for those
     * benchmarking now), the variant served under the experiment's name at the end, and when to look again if nothing
     * changes before (the budget's end). The reconciler hands it to the dependents through the workflow's context.
     */
    record Report(
            ServingExperimentStatus status,
            Set<String> serving,
            Set<String> benchmarking,
            Set<String> keptRuns,
            Optional<String> keptWinner,
            Optional<Duration> recheckAfter) {

        private static final String KEY = Report.class.getName();

        void handTo(Context<ServingExperiment> context) {
            context.managedWorkflowAndDependentResourceContext().put(KEY, this);
        }

        static Report of(Context<ServingExperiment> context) {
            return context.managedWorkflowAndDependentResourceContext().getMandatory(KEY, Report.class);
        }
    }

    private final Conditions conditions;

    ExperimentStatusReport(Clock clock) {
        this.conditions = new Conditions(clock);
    }

    Report build(ServingExperiment experiment, Observation observed) {
        ServingExperimentStatus previous =
                experiment.getStatus() == null ? new ServingExperimentStatus() : experiment.getStatus();
        Long generation = experiment.getMetadata().getGeneration();
        Instant now = observed.now();
        ServingExperimentStatus status = new ServingExperimentStatus();
        status.observedGeneration = generation;
        status.conditions = new ArrayList<>(previous.conditions);
        status.startTime = previous.startTime;
        status.completionTime = previous.completionTime;

        Map<String, VariantResult> before =
                previous.variants.stream().collect(Collectors.toMap(v -> v.name, Function.identity(), (a, b) -> a));
        ObjectiveFigures objective =
                ObjectiveFigures.of(experiment.getSpec().objective, experiment.getSpec().benchmark);
        List<VariantResult> variants = new ArrayList<>();
        for (VariantSpec spec : experiment.getSpec().variants) {
            VariantResult result = before.containsKey(spec.name)
                    ? VariantObjects.copied(before.get(spec.name), VariantResult.class)
                    : pending(spec.name);
            advance(experiment, objective, result, observed);
            variants.add(result);
        }
        status.variants = variants;

        Optional<Instant> deadline = deadline(experiment, status.startTime);
        boolean outOfTime = deadline.filter(d -> !now.isBefore(d)).isPresent()
                && variants.stream().anyMatch(v -> !FINISHED.contains(v.phase));
        if (outOfTime) {
            skipUnfinished(experiment, variants, now);
        } else if (status.completionTime == null) {
            start(experiment, variants, observed);
            if (status.startTime == null && variants.stream().anyMatch(v -> v.phase != VariantPhase.Pending)) {
                status.startTime = now.toString();
            }
        }

        boolean allFinished = variants.stream().allMatch(v -> FINISHED.contains(v.phase));
        boolean endedBefore = previous.completionTime != null;
        status.winner = endedBefore
                ? VariantObjects.copied(previous.winner, Winner.class)
                : allFinished
                        ? WinnerSelection.of(experiment, objective, variants, observed.runs())
                                .orElse(null)
                        : null;
        status.phase = phase(variants, previous.phase, outOfTime, allFinished);
        if (allFinished && status.completionTime == null) {
            status.completionTime = now.toString();
        }
        if (status.winner != null) {
            status.winner.modelServer =
                    experiment.getSpec().keepWinner && allFinished ? VariantObjects.winnerServerName(experiment) : null;
        }
        status.progress = progress(variants);
        status.speedup = status.winner == null ? null : speedupText(status.winner, experiment);
        setConditions(status, variants, generation);

        Set<String> serving = names(variants, EnumSet.of(VariantPhase.Deploying, VariantPhase.Benchmarking));
        Set<String> benchmarking = names(variants, EnumSet.of(VariantPhase.Benchmarking));
        Set<String> keptRuns = variants.stream()
                .filter(v -> v.phase == VariantPhase.Succeeded || v.phase == VariantPhase.Failed)
                .map(v -> v.name)
                .filter(observed.runs()::containsKey)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        Optional<Duration> recheck = allFinished
                ? Optional.empty()
                : deadline(experiment, status.startTime).map(d -> Duration.between(now, d));
        Optional<String> keptWinner = Optional.ofNullable(status.winner)
                .filter(w -> w.modelServer != null)
                .map(w -> w.name);
        return new Report(status, serving, benchmarking, keptRuns, keptWinner, recheck);
    }

    /** The order variants are started in: the baseline first, so every other run has it to pair with. */
    static List<VariantSpec> startOrder(ServingExperiment experiment) {
        String baseline = VariantObjects.baseline(experiment);
        List<VariantSpec> ordered = new ArrayList<>();
        experiment.getSpec().variants.stream()
                .filter(v -> v.name.equals(baseline))
                .forEach(ordered::add);
        experiment.getSpec().variants.stream()
                .filter(v -> !v.name.equals(baseline))
                .forEach(ordered::add);
        return ordered;
    }

    /** Moves one variant along by what its own server and run show. */
    private void advance(
            ServingExperiment experiment, ObjectiveFigures objective, VariantResult result, Observation observed) {
        ModelServer server = observed.servers().get(result.name);
        BenchmarkRun run = observed.runs().get(result.name);
        if (result.phase == VariantPhase.Deploying && server != null && current(server)) {
            if (server.getStatus().phase == ModelServerPhase.Ready) {
                result.phase = VariantPhase.Benchmarking;
                result.benchmarkRun = VariantObjects.childName(experiment, result.name);
                result.timeToReadySeconds = secondsSinceCreated(
                        server,
                        Conditions.find(server.getStatus().conditions, ConditionTypes.READY)
                                .map(Condition::getLastTransitionTime)
                                .map(Instant::parse)
                                .orElse(observed.now()));
                result.message = "Ready after %.0f s; benchmarking".formatted(result.timeToReadySeconds);
            } else if (server.getStatus().phase == ModelServerPhase.Failed) {
                serverFailed(result, server, observed.now());
            }
        } else if (result.phase == VariantPhase.Benchmarking) {
            Optional<BenchmarkRunPhase> runPhase =
                    Optional.ofNullable(run).map(BenchmarkRun::getStatus).map(s -> s.phase);
            if (runPhase.filter(p -> p == BenchmarkRunPhase.Succeeded).isPresent()) {
                result.phase = VariantPhase.Succeeded;
                result.completionTime = observed.now().toString();
                result.message = "Benchmarked";
            } else if (runPhase.filter(p -> p == BenchmarkRunPhase.Failed).isPresent()) {
                result.phase = VariantPhase.Failed;
                result.completionTime = observed.now().toString();
                result.message = StatusText.bounded("Its benchmark failed: "
                        + Conditions.find(run.getStatus().conditions, ConditionTypes.READY)
                                .map(Condition::getMessage)
                                .orElse("no reason given"));
            } else if (server != null && current(server) && server.getStatus().phase == ModelServerPhase.Failed) {
                serverFailed(result, server, observed.now());
            }
        }
        if (run != null && run.getStatus() != null) {
            figures(objective, result, run.getStatus());
        }
    }

    private static void serverFailed(VariantResult result, ModelServer server, Instant now) {
        result.phase = VariantPhase.Failed;
        result.completionTime = now.toString();
        result.timeToFailureSeconds = secondsSinceCreated(server, now);
        result.diagnosis = bounded(server.getStatus().diagnosis);
        result.message = StatusText.bounded("Its server did not start: "
                + (result.diagnosis == null
                        ? "no diagnosis"
                        : result.diagnosis.reason + ": " + result.diagnosis.message));
    }

    /** The run's figures the experiment shows; the run keeps the rest. */
    private static void figures(ObjectiveFigures objective, VariantResult result, BenchmarkRunStatus run) {
        result.summary = run.summary;
        result.capacity = run.capacity;
        result.comparison = run.comparison;
        result.specAcceptLength = objective.stage() == null
                ? null
                : run.stages.stream()
                        .filter(s -> objective.stage().equals(s.name))
                        .findFirst()
                        .map(s -> s.specAcceptLength)
                        .orElse(null);
        result.qualitySuspect = Conditions.isTrue(run.conditions, ConditionTypes.QUALITY_SUSPECT) ? true : null;
    }

    /** Starts the next variants in order while the pool has room. */
    private static void start(ServingExperiment experiment, List<VariantResult> variants, Observation observed) {
        Map<String, VariantResult> byName =
                variants.stream().collect(Collectors.toMap(v -> v.name, Function.identity()));
        long holding = variants.stream()
                .filter(v -> !FINISHED.contains(v.phase) && v.phase != VariantPhase.Pending
                        || FINISHED.contains(v.phase) && observed.holdingPool().contains(v.name))
                .count();
        for (VariantSpec spec : startOrder(experiment)) {
            VariantResult next = byName.get(spec.name);
            if (holding >= experiment.getSpec().parallelVariants) {
                return;
            }
            if (next.phase == VariantPhase.Pending) {
                next.phase = VariantPhase.Deploying;
                next.startTime = observed.now().toString();
                next.modelServer = VariantObjects.childName(experiment, spec.name);
                next.message = "Deploying its ModelServer";
                holding++;
            }
        }
    }

    /** The budget ran out: what runs now stops and what has not started never will. */
    private static void skipUnfinished(ServingExperiment experiment, List<VariantResult> variants, Instant now) {
        for (VariantResult v : variants) {
            if (FINISHED.contains(v.phase)) {
                continue;
            }
            v.message = v.phase == VariantPhase.Pending
                    ? "Not tried: spec.maxDurationMinutes (%d) ran out before its turn"
                            .formatted(experiment.getSpec().maxDurationMinutes)
                    : "Stopped: spec.maxDurationMinutes (%d) ran out while it was %s"
                            .formatted(
                                    experiment.getSpec().maxDurationMinutes,
                                    v.phase.name().toLowerCase());
            v.phase = VariantPhase.Skipped;
            v.completionTime = now.toString();
            v.benchmarkRun = null;
        }
    }

    private static ServingExperimentPhase phase(
            List<VariantResult> variants, ServingExperimentPhase before, boolean outOfTime, boolean allFinished) {
        if (outOfTime || before == ServingExperimentPhase.Incomplete) {
            return ServingExperimentPhase.Incomplete;
        }
        if (allFinished) {
            return variants.stream().anyMatch(v -> v.phase == VariantPhase.Succeeded)
                    ? ServingExperimentPhase.Succeeded
                    : ServingExperimentPhase.Failed;
        }
        return variants.stream().allMatch(v -> v.phase == VariantPhase.Pending)
                ? ServingExperimentPhase.Pending
                : ServingExperimentPhase.Running;
    }

    private void setConditions(ServingExperimentStatus status, List<VariantResult> variants, Long generation) {
        boolean running =
                status.phase == ServingExperimentPhase.Pending || status.phase == ServingExperimentPhase.Running;
        boolean succeeded = status.phase == ServingExperimentPhase.Succeeded;
        String outcome = status.winner != null
                ? status.winner.reason
                : "No variant can win: every variant that finished its benchmark failed or gave suspect outputs";
        Optional<VariantResult> current = variants.stream()
                .filter(v -> v.phase == VariantPhase.Deploying || v.phase == VariantPhase.Benchmarking)
                .findFirst();
        String stalledReason = status.phase == ServingExperimentPhase.Incomplete
                ? ConditionReasons.BUDGET_EXHAUSTED
                : ConditionReasons.NO_VARIANT_SUCCEEDED;
        String stalledMessage = status.phase == ServingExperimentPhase.Incomplete
                ? "spec.maxDurationMinutes ran out with %d of %d variants tried; %s"
                        .formatted(
                                variants.stream()
                                        .filter(v ->
                                                v.phase == VariantPhase.Succeeded || v.phase == VariantPhase.Failed)
                                        .count(),
                                variants.size(),
                                outcome)
                : "No variant succeeded: " + failures(variants);
        conditions.set(
                status.conditions,
                ConditionTypes.READY,
                Conditions.of(succeeded),
                succeeded ? ConditionReasons.SUCCEEDED : running ? status.phase.name() : stalledReason,
                succeeded ? outcome : running ? "Variants done: " + status.progress : stalledMessage,
                generation);
        conditions.set(
                status.conditions,
                ConditionTypes.RECONCILING,
                Conditions.of(running),
                running ? current.map(v -> v.phase.name()).orElse(status.phase.name()) : status.phase.name(),
                running ? current.map(v -> v.name + ": " + v.message).orElse("") : "",
                generation);
        boolean stalled = !running && !succeeded;
        conditions.set(
                status.conditions,
                ConditionTypes.STALLED,
                Conditions.of(stalled),
                stalled ? stalledReason : "NotStalled",
                stalled ? stalledMessage : "",
                generation);
    }

    private static String failures(List<VariantResult> variants) {
        return StatusText.bounded(variants.stream()
                .filter(v -> v.phase == VariantPhase.Failed)
                .map(v -> v.name + " (" + v.message + ")")
                .collect(Collectors.joining("; ")));
    }

    /** Variants done out of all, then the one in progress: "2/4 dflash-b8". */
    static String progress(List<VariantResult> variants) {
        long done = variants.stream().filter(v -> FINISHED.contains(v.phase)).count();
        String current = variants.stream()
                .filter(v -> v.phase == VariantPhase.Deploying || v.phase == VariantPhase.Benchmarking)
                .map(v -> v.name)
                .collect(Collectors.joining(","));
        return StatusText.bounded(done + "/" + variants.size() + (current.isEmpty() ? "" : " " + current));
    }

    /** The winner against the baseline for kubectl get: "1.9x [1.8, 2.0]", or "baseline" when the baseline won. */
    private static String speedupText(Winner winner, ServingExperiment experiment) {
        if (winner.name.equals(VariantObjects.baseline(experiment))) {
            return "baseline";
        }
        if (winner.speedup == null) {
            return null;
        }
        String interval = winner.speedupInterval == null
                ? ""
                : " [%.2f, %.2f]".formatted(winner.speedupInterval.low, winner.speedupInterval.high);
        return "%.2fx%s".formatted(winner.speedup, interval);
    }

    private static Optional<Instant> deadline(ServingExperiment experiment, String startTime) {
        Integer minutes = experiment.getSpec().maxDurationMinutes;
        return minutes == null || startTime == null
                ? Optional.empty()
                : Optional.of(Instant.parse(startTime).plus(Duration.ofMinutes(minutes)));
    }

    /** The server's status describes its current spec (it never changes, but a stale copy may lag its creation). */
    private static boolean current(ModelServer server) {
        return server.getStatus() != null
                && server.getStatus().phase != null
                && server.getMetadata().getGeneration() != null
                && server.getMetadata().getGeneration().equals(server.getStatus().observedGeneration);
    }

    private static double secondsSinceCreated(ModelServer server, Instant at) {
        Instant created = Instant.parse(server.getMetadata().getCreationTimestamp());
        return Math.max(0, Duration.between(created, at).toMillis() / 1000.0);
    }

    private static Diagnosis bounded(Diagnosis diagnosis) {
        if (diagnosis == null) {
            return null;
        }
        Diagnosis copy = new Diagnosis();
        copy.reason = StatusText.bounded(diagnosis.reason);
        copy.message = StatusText.bounded(diagnosis.message);
        copy.hint = StatusText.bounded(diagnosis.hint);
        copy.pod = diagnosis.pod;
        copy.since = diagnosis.since;
        return copy;
    }

    private static Set<String> names(List<VariantResult> variants, Set<VariantPhase> phases) {
        return variants.stream()
                .filter(v -> phases.contains(v.phase))
                .map(v -> v.name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static VariantResult pending(String name) {
        VariantResult result = new VariantResult();
        result.name = name;
        result.phase = VariantPhase.Pending;
        return result;
    }
}
