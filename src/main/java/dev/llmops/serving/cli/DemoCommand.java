package dev.llmops.serving.cli;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunPhase;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentPhase;
import dev.llmops.serving.api.v1alpha1.servingexperiment.ServingExperimentStatus;
import dev.llmops.serving.api.v1alpha1.servingexperiment.VariantPhase;
import dev.llmops.serving.common.options.OptionValues;
import dev.llmops.serving.demo.DemoConsole;
import dev.llmops.serving.demo.DemoRunner;
import dev.llmops.serving.demo.DemoScenario;
import dev.llmops.serving.demo.DemoShutdown;
import dev.llmops.serving.demo.KubeletStandIn;
import dev.llmops.serving.demo.WorkloadControllerStandIn;
import dev.llmops.serving.demo.apiserver.EmbeddedKubernetes;
import dev.llmops.serving.demo.apiserver.TemporaryKubeconfig;
import dev.llmops.serving.operator.config.LeaderElection;
import dev.llmops.serving.operator.config.ProgressPoll;
import dev.llmops.serving.runner.command.BenchCommand;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The main job without a cluster: the operator, simulated GPU servers and real benchmarks on an embedded Kubernetes
 * API.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Run the whole flow on an embedded Kubernetes API: the operator, simulated SGLang servers behind "
                + "pods, and benchmark Jobs that run the real runner. No cluster needed.")
public class DemoCommand implements Callable<Integer> {

    static final int PROGRESS_POLL_SECONDS = 2;

    /** The file {@code --save} writes an experiment's runs to, together, for {@code report --runs}. */
    static final String EXPERIMENT_RUNS_FILE = "benchmarkruns.yaml";

    @Option(
            names = "--scenario",
            defaultValue = "speculative-decoding",
            description = "speculative-decoding (an autoregressive and an EAGLE3 server, benchmarked and compared),"
                    + " broken-draft (the same pair, the EAGLE3 server faster but saying something else),"
                    + " half-ready (a server that lists its model but cannot generate) or experiment (a"
                    + " ServingExperiment of four variants taking one GPU node in turn: autoregressive, EAGLE3, DFlash"
                    + " and one that cannot start). Default: ${DEFAULT-VALUE}.")
    String scenario;

    @Option(
            names = "--keep",
            description = "Write a kubeconfig for the embedded API at the start, print how to reach it, and"
                    + " keep the API running at the end until Ctrl-C.")
    boolean keep;

    @Option(
            names = "--port",
            defaultValue = "0",
            description = "Port of the embedded Kubernetes API (0 picks a free one).")
    int port;

    @Option(
            names = "--timeout",
            defaultValue = "300",
            description = "Seconds to wait for the benchmarks. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(
            names = "--save",
            paramLabel = "DIR",
            description = "Write the final ServingExperiments, ModelServers and BenchmarkRuns as YAML into DIR (input"
                    + " for `report`).")
    Path saveDirectory;

    @Option(names = "--verbose", description = "Also print the log of the operator, the Kubernetes client and Quarkus.")
    boolean verbose;

    @Inject
    Instance<Operator> operator;

    @Inject
    LeaderElection leaderElection;

    @Inject
    ProgressPoll progressPoll;

    @Inject
    CommandLine.IFactory factory;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        OptionValues.requirePort(spec, "--port", port);
        OptionValues.require(spec, "--timeout", timeoutSeconds >= 1, "is below 1 second");
        OptionValues.require(
                spec,
                "--scenario",
                DemoScenario.NAMES.contains(scenario),
                "is not a scenario: use one of " + String.join(", ", DemoScenario.NAMES));
        DemoConsole console = DemoConsole.configure(verbose, System.console() != null);
        DemoScenario demo = DemoScenario.named(scenario);
        PrintStream out = System.out;
        try (DemoShutdown shutdown = DemoShutdown.install(out, console::stopping)) {
            try {
                return run(demo, shutdown, out);
            } catch (Exception e) {
                if (shutdown.interrupted()) {
                    return DemoShutdown.INTERRUPTED_EXIT;
                }
                throw e;
            }
        }
    }

    private int run(DemoScenario demo, DemoShutdown shutdown, PrintStream out) throws InterruptedException {
        EmbeddedKubernetes kubernetes;
        try {
            kubernetes = shutdown.add(EmbeddedKubernetes.start(port));
        } catch (IllegalStateException e) {
            throw new ParameterException(
                    spec.commandLine(), e.getMessage() + ": " + Causes.rootMessage(e) + "; choose another --port");
        }
        out.printf("Kubernetes API   %s (embedded; CRDs from deploy/crds)%n", kubernetes.url());
        out.println("Operator         ModelServer, BenchmarkRun and ServingExperiment controllers, in this process");
        out.println("Nodes            simulated: SGLang servers on 127.0.0.x behind pods; benchmark pods run the real "
                + "runner");
        Path kubeconfig =
                keep ? shutdown.add(new TemporaryKubeconfig(kubernetes)).path() : null;
        if (kubeconfig != null) {
            out.printf(
                    "kubectl          kubectl --kubeconfig %s get %s -n %s%n",
                    kubeconfig, demo.kinds(), DemoScenario.NAMESPACE);
        }
        out.println();
        Operator controllers = startOperator(kubernetes);
        shutdown.add(() -> {
            leaderElection.stopping();
            controllers.stop();
        });
        shutdown.add(new WorkloadControllerStandIn(kubernetes.client()).start());
        KubeletStandIn kubelet = shutdown.add(new KubeletStandIn(
                        kubernetes.client(),
                        pod -> true,
                        pod -> demo.profileOf(pod.getMetadata().getLabels().get(Labels.MODEL_SERVER)),
                        (args, log) -> CommandLines.configure(new CommandLine(BenchCommand.class, factory))
                                .setOut(log)
                                .setErr(log)
                                .execute(args.toArray(String[]::new)))
                .start());
        kubernetes.servePodLogs(kubelet.logs());
        DemoRunner runner = new DemoRunner(kubernetes.client(), demo, out);
        runner.apply();
        DemoRunner.Outcome outcome = runner.awaitCompletion(Duration.ofSeconds(timeoutSeconds));
        runner.print(outcome);
        if (saveDirectory != null) {
            save(kubernetes, outcome, out);
        }
        if (kubeconfig != null) {
            out.printf(
                    "%nThe embedded API keeps running. Try:%n  kubectl --kubeconfig %s get %s -n %s%nCtrl-C "
                            + "stops it.%n",
                    kubeconfig, demo.kinds(), DemoScenario.NAMESPACE);
            Quarkus.waitForExit();
        }
        if (shutdown.interrupted()) {
            return DemoShutdown.INTERRUPTED_EXIT;
        }
        return expected(demo, outcome, out) ? 0 : 1;
    }

    /**
     * Points the operator's client at the embedded API and has the BenchmarkRun controller read a running benchmark's
     * progress every {@value #PROGRESS_POLL_SECONDS} s instead of the operator's default (the demo's benchmarks are
     * short), then starts the controllers.
     */
    private Operator startOperator(EmbeddedKubernetes kubernetes) {
        progressPoll.set(Duration.ofSeconds(PROGRESS_POLL_SECONDS));
        System.setProperty("kubernetes.master", kubernetes.url());
        System.setProperty("kubernetes.auth.tryKubeConfig", "false");
        System.setProperty("kubernetes.auth.tryServiceAccount", "false");
        System.setProperty("kubernetes.namespace", "default");
        Operator controllers = operator.get();
        controllers.start();
        return controllers;
    }

    private boolean expected(DemoScenario demo, DemoRunner.Outcome outcome, PrintStream out) {
        if (!outcome.finished()) {
            out.printf("%nThe benchmarks did not finish within %d s.%n", timeoutSeconds);
            return false;
        }
        if ("experiment".equals(demo.name())) {
            return experimentAsExpected(outcome, out);
        }
        if ("half-ready".equals(demo.name())) {
            boolean failedAsExpected = outcome.servers().stream()
                            .allMatch(s -> s.getStatus() != null && s.getStatus().phase == ModelServerPhase.Failed)
                    && outcome.runs().stream()
                            .allMatch(r -> r.getStatus().phase == BenchmarkRunPhase.Failed
                                    && reason(r, ConditionTypes.READY).equals(ConditionReasons.SERVER_NOT_READY));
            out.printf(
                    "%n%s%n",
                    failedAsExpected
                            ? "As expected: the server answers /v1/models, but its first real generation failed with "
                                    + "no kernel image for this GPU, so it was Failed at once and the benchmark gave "
                                    + "up with ServerNotReady."
                            : "Unexpected: the half-ready server should have failed and kept the benchmark from "
                                    + "running.");
            return failedAsExpected;
        }
        boolean succeeded = outcome.runs().stream().allMatch(r -> r.getStatus().phase == BenchmarkRunPhase.Succeeded);
        if ("broken-draft".equals(demo.name())) {
            boolean flagged = outcome.runs().stream().anyMatch(r -> conditionTrue(r, ConditionTypes.QUALITY_SUSPECT));
            out.printf(
                    "%n%s%n",
                    flagged
                            ? "As expected: the EAGLE3 server was faster, but its greedy outputs left the "
                                    + "autoregressive server's after a few tokens, so its run is QualitySuspect."
                            : "Unexpected: the broken draft changed the outputs, yet no run is QualitySuspect.");
            return succeeded && flagged;
        }
        return succeeded;
    }

    /**
     * The experiment succeeded with DFlash the winner, the variant on the CUDA 12.8 image failed with the SM120
     * FlashInfer diagnosis, and no two variants' servers were on the node at once.
     */
    private static boolean experimentAsExpected(DemoRunner.Outcome outcome, PrintStream out) {
        ServingExperimentStatus status = outcome.experiments().get(0).getStatus();
        boolean won = status.phase == ServingExperimentPhase.Succeeded
                && status.winner != null
                && DemoScenario.EXPECTED_WINNER.equals(status.winner.name);
        boolean diagnosed = status.variants.stream()
                .anyMatch(v -> v.name.equals(DemoScenario.FAILING_VARIANT)
                        && v.phase == VariantPhase.Failed
                        && v.diagnosis != null
                        && DemoScenario.FAILING_DIAGNOSIS.equals(v.diagnosis.reason));
        boolean oneAtATime = outcome.mostServersAtOnce() == 1;
        out.printf(
                "%n%s%n",
                won && diagnosed && oneAtATime
                        ? "As expected: the variants took the node one at a time, " + DemoScenario.EXPECTED_WINNER
                                + " won beyond noise, and " + DemoScenario.FAILING_VARIANT + " failed to start with "
                                + DemoScenario.FAILING_DIAGNOSIS + "."
                        : "Unexpected: " + DemoScenario.EXPECTED_WINNER + " should win, "
                                + DemoScenario.FAILING_VARIANT + " should fail with " + DemoScenario.FAILING_DIAGNOSIS
                                + ", and the variants should take the node one at a time.");
        return won && diagnosed && oneAtATime;
    }

    private static boolean conditionTrue(BenchmarkRun run, String conditionType) {
        return run.getStatus().conditions.stream()
                .anyMatch(c -> conditionType.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static String reason(BenchmarkRun run, String conditionType) {
        return run.getStatus().conditions.stream()
                .filter(c -> conditionType.equals(c.getType()))
                .map(Condition::getReason)
                .findFirst()
                .orElse("");
    }

    /**
     * Writes each final resource to its own YAML file (and an experiment's runs, together, to one more), then says
     * where and which {@code report} command renders them.
     */
    private void save(EmbeddedKubernetes kubernetes, DemoRunner.Outcome outcome, PrintStream out) {
        var serialization = kubernetes.client().getKubernetesSerialization();
        List<HasMetadata> all = new ArrayList<>(outcome.experiments());
        all.addAll(outcome.servers());
        all.addAll(outcome.runs());
        try {
            Files.createDirectories(saveDirectory);
            for (HasMetadata resource : all) {
                Files.writeString(
                        saveDirectory.resolve(resource.getKind().toLowerCase(Locale.ROOT) + "-"
                                + resource.getMetadata().getName() + ".yaml"),
                        serialization.asYaml(resource));
            }
            if (!outcome.experiments().isEmpty()) {
                Files.writeString(
                        saveDirectory.resolve(EXPERIMENT_RUNS_FILE),
                        outcome.runs().stream().map(serialization::asYaml).collect(Collectors.joining()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.printf("%nSaved %d resources to %s, one YAML file each.%n", all.size(), saveDirectory);
        reportCommand(outcome).ifPresent(command -> out.printf("Render the report:%n  %s%n", command));
    }

    /** The report command for the experiment, or else for the run compared with another, or else the first run. */
    private Optional<String> reportCommand(DemoRunner.Outcome outcome) {
        String executable = System.getProperty("java.class.path", "").endsWith(".jar")
                ? "java -jar " + System.getProperty("java.class.path")
                : "llm-serving-operator";
        if (!outcome.experiments().isEmpty()) {
            String name = outcome.experiments().get(0).getMetadata().getName();
            return Optional.of("%s report --file %s --runs %s --output %s.html"
                    .formatted(
                            executable,
                            saveDirectory.resolve("servingexperiment-" + name + ".yaml"),
                            saveDirectory.resolve(EXPERIMENT_RUNS_FILE),
                            name));
        }
        return outcome.runs().stream()
                .filter(run -> run.getStatus() != null && run.getStatus().comparison != null)
                .findFirst()
                .or(() -> outcome.runs().stream().findFirst())
                .map(run -> "%s report --file %s --output %s.html"
                        .formatted(
                                executable,
                                saveDirectory.resolve(
                                        "benchmarkrun-" + run.getMetadata().getName() + ".yaml"),
                                run.getMetadata().getName()));
    }
}
