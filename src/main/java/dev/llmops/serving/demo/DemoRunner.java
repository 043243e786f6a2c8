package dev.llmops.serving.demo;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.operator.toolkit.Conditions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Applies a scenario's resources to an API where the operator and the stand-ins run, follows them until every
 * BenchmarkRun has finished, and prints the outcome. Used by the demo command and by the end-to-end test alike.
 */
public final class DemoRunner {

    /** Final state of the scenario's resources. */
    public record Outcome(List<ModelServer> servers, List<BenchmarkRun> runs, boolean finished) {
        public BenchmarkRun run(String name) {
            return runs.stream()
                    .filter(r -> r.getMetadata().getName().equals(name))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private final KubernetesClient client;
    private final DemoScenario scenario;
    private final DemoReport report;

    public DemoRunner(KubernetesClient client, DemoScenario scenario, PrintStream out) {
        this.client = client;
        this.scenario = scenario;
        this.report = new DemoReport(out);
    }

    public void apply() {
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
    }

    /** Polls until every BenchmarkRun is Succeeded or Failed, or the timeout passes; prints each change. */
    public Outcome awaitCompletion(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ModelServer> servers = current(scenario.servers(), ModelServer.class);
            List<BenchmarkRun> runs = current(scenario.runs(), BenchmarkRun.class);
            report.progress(servers, runs);
            boolean finished = runs.stream().allMatch(DemoRunner::isFinished);
            if (finished || System.nanoTime() > deadline) {
                return new Outcome(servers, runs, finished);
            }
            Thread.sleep(250);
        }
    }

    public void print(Outcome outcome) {
        report.modelServers(outcome.servers());
        report.benchmarkRuns(outcome.runs());
    }

    private <T extends io.fabric8.kubernetes.api.model.HasMetadata> List<T> current(List<T> applied, Class<T> type) {
        return applied.stream()
                .map(a -> client.resources(type)
                        .inNamespace(DemoScenario.NAMESPACE)
                        .withName(a.getMetadata().getName())
                        .get())
                .filter(Objects::nonNull)
                .toList();
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
