package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.BenchmarkRunStatus;
import dev.llmops.serving.api.v1alpha1.ModelServer;
import dev.llmops.serving.api.v1alpha1.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.ModelServerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's progress lines show each resource's phase and a run's status.progress, once per change. */
class DemoReportTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final DemoReport report = new DemoReport(new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void aRunningRunShowsItsProgressAsTheStatusHoldsIt() {
        ModelServer server = server("llm-eagle3", ModelServerPhase.Ready);

        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "2/5 c16")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "2/5 c16")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Running, "3/5 c32")));
        report.progress(List.of(server), List.of(run("eagle3", BenchmarkRunPhase.Succeeded, "5/5")));

        assertThat(lines())
                .satisfiesExactly(
                        l -> assertThat(l)
                                .matches("\\[ +\\d+\\.\\ds] ms/llm-eagle3 Ready  \\|  br/eagle3 Running 2/5 c16"),
                        l -> assertThat(l).endsWith("] ms/llm-eagle3 Ready  |  br/eagle3 Running 3/5 c32"),
                        l -> assertThat(l).endsWith("] ms/llm-eagle3 Ready  |  br/eagle3 Succeeded 5/5"));
    }

    @Test
    void resourcesWithoutStatusShowADash() {
        report.progress(List.of(server("llm-eagle3", null)), List.of(run("eagle3", null, null)));

        assertThat(lines()).singleElement().satisfies(l -> assertThat(l).endsWith("] ms/llm-eagle3 -  |  br/eagle3 -"));
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static ModelServer server(String name, ModelServerPhase phase) {
        ModelServer server = new ModelServer();
        server.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(DemoScenario.NAMESPACE)
                .build());
        if (phase != null) {
            server.setStatus(new ModelServerStatus());
            server.getStatus().phase = phase;
        }
        return server;
    }

    private static BenchmarkRun run(String name, BenchmarkRunPhase phase, String progress) {
        BenchmarkRun run = new BenchmarkRun();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(DemoScenario.NAMESPACE)
                .build());
        if (phase != null) {
            run.setStatus(new BenchmarkRunStatus());
            run.getStatus().phase = phase;
            run.getStatus().progress = progress;
        }
        return run;
    }
}
