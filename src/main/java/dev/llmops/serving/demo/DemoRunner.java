package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperiment;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Applies a scenario's resources to an API where the operator and the stand-ins run, follows them until every
 * BenchmarkRun and every ServingExperiment has finished (and the experiments' servers have left the node), and prints
 * the outcome. Used by the demo command and by the end-to-end test alike.
 */
public final class DemoRunner {

    /**
     * Final state of the scenario's resources, those the experiments created included, and the most servers of the
     * experiments that were on the node at once.
     */
    public record Outcome(
            List<ModelServer> servers,
            List<BenchmarkRun> runs,
            List<ServingExperiment> experiments,
            int mostServersAtOnce,
            boolean finished) {}

    private final KubernetesClient client;
    private final DemoScenario scenario;
    private final DemoReport report;
    private final ExperimentReport experimentReport;
    private final ServerTimeline timeline = new ServerTimeline();
    private final long startNanos = System.nanoTime();

    public DemoRunner(KubernetesClient client, DemoScenario scenario, PrintStream out) {
        this.client = client;
        this.scenario = scenario;
        this.report = new DemoReport(out, startNanos);
        this.experimentReport = new ExperimentReport(out, startNanos);
    }

    public void apply() {
        SimulatedGpuNode.register(client);
        if (client.namespaces().withName(DemoScenario.NAMESPACE).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(DemoScenario.NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
        }
        scenario.servers().forEach(s -> client.resource(s).create());
        scenario.runs().forEach(r -> client.resource(r).create());
        scenario.experiments().forEach(e -> client.resource(e).create());
    }

    /**
     * Polls until every BenchmarkRun is Succeeded or Failed and every ServingExperiment has ended with its servers
     * gone, or the timeout passes; prints each change.
     */
    public Outcome awaitCompletion(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ServingExperiment> experiments = current(scenario.experiments(), ServingExperiment.class);
            List<ModelServer> servers =
                    withExperiments(current(scenario.servers(), ModelServer.class), ModelServer.class);
            List<BenchmarkRun> runs = withExperiments(current(scenario.runs(), BenchmarkRun.class), BenchmarkRun.class);
            if (experiments.isEmpty()) {
                report.progress(servers, runs);
            } else {
                experimentReport.timeline(
                        timeline.observe(onNode(experiments, servers), DemoReport.seconds(startNanos)));
                experimentReport.progress(experiments, servers, runs);
            }
            boolean finished = runs.stream().allMatch(DemoRunner::isFinished)
                    && experiments.stream().allMatch(DemoRunner::isFinished)
                    && timeline.empty();
            if (finished || System.nanoTime() > deadline) {
                return new Outcome(servers, runs, experiments, timeline.mostAtOnce(), finished);
            }
            Thread.sleep(250);
        }
    }

    public void print(Outcome outcome) {
        if (outcome.experiments().isEmpty()) {
            report.modelServers(outcome.servers());
            report.benchmarkRuns(outcome.runs());
        } else {
            experimentReport.results(outcome.experiments(), timeline);
        }
    }

    /** The objects of this kind the scenario applied, then those its experiments made. */
    private <T extends HasMetadata> List<T> withExperiments(List<T> applied, Class<T> type) {
        if (scenario.experiments().isEmpty()) {
            return applied;
        }
        List<T> all = new ArrayList<>(applied);
        client
                .resources(type)
                .inNamespace(DemoScenario.NAMESPACE)
                .withLabel(Labels.EXPERIMENT)
                .list()
                .getItems()
                .stream()
                .sorted(Comparator.comparing((T o) -> o.getMetadata().getCreationTimestamp())
                        .thenComparing(o -> o.getMetadata().getName()))
                .forEach(all::add);
        return all;
    }

    /** The experiments' variant servers whose ModelServer or pods exist: what holds the node's GPUs. */
    private Set<String> onNode(List<ServingExperiment> experiments, List<ModelServer> servers) {
        Set<String> variantServers = new HashSet<>();
        experiments.forEach(e -> e.getSpec()
                .variants
                .forEach(v -> variantServers.add(e.getMetadata().getName() + "-" + v.name)));
        Set<String> present = new TreeSet<>();
        servers.stream()
                .map(s -> s.getMetadata().getName())
                .filter(variantServers::contains)
                .forEach(present::add);
        client.pods().inNamespace(DemoScenario.NAMESPACE).withLabel(Labels.MODEL_SERVER).list().getItems().stream()
                .map(p -> p.getMetadata().getLabels().get(Labels.MODEL_SERVER))
                .filter(variantServers::contains)
                .forEach(present::add);
        return present;
    }

    private <T extends HasMetadata> List<T> current(List<T> applied, Class<T> type) {
        return applied.stream()
                .map(a -> client.resources(type)
                        .inNamespace(DemoScenario.NAMESPACE)
                        .withName(a.getMetadata().getName())
                        .get())
                .filter(Objects::nonNull)
                .toList();
    }

    /** Ended: Succeeded, Failed or Incomplete. */
    static boolean isFinished(ServingExperiment experiment) {
        return experiment.getStatus() != null
                && (experiment.getStatus().phase == ServingExperimentPhase.Succeeded
                        || experiment.getStatus().phase == ServingExperimentPhase.Failed
                        || experiment.getStatus().phase == ServingExperimentPhase.Incomplete);
    }

    /** Succeeded or Failed, and compared with its baseline unless that comparison is still waiting for the baseline. */
    static boolean isFinished(BenchmarkRun run) {
        return run.getStatus() != null
                && (run.getStatus().phase == BenchmarkRunPhase.Succeeded
                        || run.getStatus().phase == BenchmarkRunPhase.Failed)
                && Conditions.find(run.getStatus().conditions, ConditionTypes.BASELINE_COMPARED)
                        .map(c -> !ConditionReasons.BASELINE_PENDING.equals(c.getReason()))
                        .orElse(true);
    }
}
