package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.CapacityMode;
import dev.llmops.serving.api.v1alpha1.ConditionTypes;
import dev.llmops.serving.api.v1alpha1.Labels;
import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ArrivalProcess;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.CapacitySpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ClaimFileReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ConfigMapKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.DatasetType;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SessionsSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.ShareGptSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SharedPrefixSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.SloSpec;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.TraceSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Job's name, command line and deadline, derived from the spec. */
class JobPlanTest {

    @Test
    void aModelServerTargetSendsTheKeyTheServerRequires() {
        ModelServer server = new ModelServer();
        server.setSpec(new ModelServerSpec());
        server.getSpec().apiKeySecret = new SecretKeyReference();
        server.getSpec().apiKeySecret.name = "kimi-api";
        server.getSpec().apiKeySecret.key = "key";
        TargetState target = new TargetState(
                "kimi", true, "http://kimi.llm.svc:30000", "kimi-k2", java.util.Optional.of(server), null);
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.modelServer = "kimi";

        SecretKeyReference key = BenchmarkJobDependent.apiKey(spec, target);
        PodSpec pod =
                BenchmarkJobDependent.podSpec(spec, "kimi-bench", target.url(), "kimi-k2", List.of(), key, "runner:1");

        assertThat(pod.getContainers().get(0).getArgs()).containsSubsequence("--api-key-env", "BENCH_API_KEY");
        assertThat(pod.getContainers().get(0).getEnv()).singleElement().satisfies(env -> {
            assertThat(env.getName()).isEqualTo("BENCH_API_KEY");
            assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("kimi-api");
        });

        server.getSpec().apiKeySecret = null;
        assertThat(BenchmarkJobDependent.apiKey(spec, target)).isNull();
    }

    @Test
    void shardsRunAsOneIndexedJobWhosePodsFindShardZeroUnderTheRunsService() {
        BenchmarkRunSpec spec = spec();
        spec.runner.shards = 4;

        PodSpec pod = podSpec(spec);

        var container = pod.getContainers().get(0);
        assertThat(container.getArgs())
                .containsSubsequence("--shard", "$(JOB_COMPLETION_INDEX)/4")
                .containsSubsequence("--rendezvous", "kimi-bench-0.kimi-bench:7070")
                .doesNotContain("--samples-log");
        assertThat(container.getEnv()).singleElement().satisfies(env -> {
            assertThat(env.getName()).isEqualTo("JOB_COMPLETION_INDEX");
            assertThat(env.getValueFrom().getFieldRef().getFieldPath())
                    .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
        });
        assertThat(container.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getName()).isEqualTo("rendezvous");
            assertThat(port.getContainerPort()).isEqualTo(7070);
        });
        assertThat(pod.getSubdomain()).isEqualTo("kimi-bench");
        assertThat(pod.getTopologySpreadConstraints()).singleElement().satisfies(spread -> {
            assertThat(spread.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(spread.getWhenUnsatisfiable()).isEqualTo("ScheduleAnyway");
            assertThat(spread.getLabelSelector().getMatchLabels()).containsEntry(Labels.INSTANCE, "kimi-bench");
        });

        spec.runner.shards = 1;
        PodSpec whole = podSpec(spec);
        assertThat(whole.getContainers().get(0).getArgs())
                .contains("--samples-log")
                .doesNotContain("--shard");
        assertThat(whole.getSubdomain()).isNull();
        assertThat(whole.getTopologySpreadConstraints()).isEmpty();
    }

    @Test
    void aShardPodsHostNameFitsADnsLabelWhateverTheRunsName() {
        String name = BenchmarkJobDependent.jobName("r".repeat(253));

        assertThat((name + "-63").length()).isLessThanOrEqualTo(63);
    }

    @Test
    void deadlineOfTheDefaultPlanAssumesEveryRequestRunsIntoItsTimeout() {
        BenchmarkRunSpec spec = spec();

        // 600 + 900 × (3 warm-up + 3 prompts + 3 quality prompts) + 5 levels × 4 rounds × 900
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 900 * 9 + 5 * 4 * 900);
    }

    @Test
    void deadlineWithRequestsPerLevelCountsTheRoundsEachWorkerSends() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 60;
        spec.sweep.concurrency = List.of(8, 64);
        spec.sweep.requestsPerLevel = 100;

        // level 8: ⌈100/8⌉ = 13 rounds, level 64: 2 rounds
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 60 * 9 + 60 * (13 + 2));
    }

    @Test
    void deadlineWithDurationPerLevelWaitsForTheRequestsInFlight() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 60;
        spec.warmup.requests = 0;
        spec.singleRequest.prompts = List.of();
        spec.sweep.concurrency = List.of(8, 16);
        spec.sweep.durationSecondsPerLevel = 300;

        // the quality stage sends the runner's 3 default prompts
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 60 * 3 + 2 * (300 + 60));
    }

    @Test
    void deadlineIsCappedAtSevenDays() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 86400;

        assertThat(JobDeadline.seconds(spec)).isEqualTo(7 * 24 * 3600);
    }

    @Test
    void jobNameIsTheRunNameWithASuffixAndLongNamesAreShortenedWithAHash() {
        assertThat(BenchmarkJobDependent.jobName("kimi-eagle3")).isEqualTo("kimi-eagle3-bench");
        String longName = "kimi-k2-rtx-pro-6000-eagle3-speculative-decoding-against-autoregressive-baseline";
        String other = longName.replace("baseline", "baseline2");

        String name = BenchmarkJobDependent.jobName(longName);

        assertThat(name).hasSizeLessThanOrEqualTo(63).endsWith("-bench").startsWith("kimi-k2-rtx-pro-6000");
        assertThat(name).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        assertThat(BenchmarkJobDependent.jobName(longName)).isEqualTo(name);
        assertThat(BenchmarkJobDependent.jobName(other)).isNotEqualTo(name).hasSizeLessThanOrEqualTo(63);
    }

    @Test
    void commandLineCarriesEverySettingOfTheSpec() {
        BenchmarkRunSpec spec = spec();
        spec.singleRequest.prompts = List.of("Explain quantum entanglement", "Write a haiku");
        spec.dataset.type = DatasetType.Random;
        spec.dataset.inputLength = 1024;
        spec.dataset.outputLength = 512;
        spec.dataset.ignoreEos = true;
        spec.sweep.concurrency = List.of(8, 16);
        spec.sweep.requestsPerLevel = 64;
        spec.target.apiKeySecret = new SecretKeyReference();

        List<String> args = RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of());

        assertThat(String.join(" ", args))
                .isEqualTo("bench --url http://kimi.llm.svc:30000 --model kimi-k2"
                        + " --prompts Explain quantum entanglement --prompts Write a haiku"
                        + " --dataset random --input-len 1024 --output-len 512 --ignore-eos --concurrency 8,16 "
                        + "--requests-per-level 64"
                        + " --warmup 3 --warmup-max-tokens 256 --max-tokens 4096 --temperature 0.6 --top-p 0.95 "
                        + "--timeout 900"
                        + " --api-key-env BENCH_API_KEY --quality --quality-max-tokens 256 --samples-log"
                        + " --summary-file /dev/termination-log");
        assertThat(args).containsSubsequence("--prompts", "Explain quantum entanglement");
    }

    @Test
    void theRunnerReadsEachServingPodsMetricsOrTheExternalTargetsMetricsUrl() {
        BenchmarkRunSpec external = spec();
        external.quality.maxTokens = 64;
        List<String> pods = List.of("http://10.0.0.7:30000/metrics", "http://10.0.0.9:30000/metrics");

        assertThat(String.join(" ", RunnerArguments.of(external, "http://sglang.example:30000", "kimi-k2", pods)))
                .as("an external target ignores pods and has no metrics URL of its own")
                .doesNotContain("--metrics-url")
                .contains(" --quality --quality-max-tokens 64 --samples-log ");
        external.target.metricsUrl = "http://sglang.example:9090/metrics";
        assertThat(RunnerArguments.of(external, "http://sglang.example:30000", "kimi-k2", pods))
                .containsSubsequence("--metrics-url", "http://sglang.example:9090/metrics")
                .containsOnlyOnce("--metrics-url");

        BenchmarkRunSpec modelServer = spec();
        modelServer.target.url = null;
        modelServer.target.modelServer = "kimi";
        assertThat(String.join(" ", RunnerArguments.of(modelServer, "http://kimi.llm.svc:30000", "kimi-k2", pods)))
                .contains(" --metrics-url http://10.0.0.7:30000/metrics --metrics-url http://10.0.0.9:30000/metrics ");
    }

    @Test
    void theMetricsEndpointsAreTheReadyServingPodsTheOperatorFoundInferenceReadyByName() {
        List<Pod> pods = List.of(
                servingPod("kimi-b", "10.0.0.9", true, false),
                servingPod("kimi-a", "fd00::7", true, false),
                servingPod("kimi-c", "10.0.0.11", false, false),
                servingPod("kimi-d", null, true, false),
                servingPod("kimi-e", "10.0.0.12", true, true),
                withoutInferenceReady(servingPod("kimi-f", "10.0.0.13", true, false)));

        assertThat(ServingPodMetrics.urls(pods, 30000))
                .containsExactly("http://[fd00::7]:30000/metrics", "http://10.0.0.9:30000/metrics");
    }

    private static Pod servingPod(String name, String ip, boolean ready, boolean deleting) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withDeletionTimestamp(deleting ? "2026-12-01T10:00:00Z" : null)
                .endMetadata()
                .withNewStatus()
                .withPodIP(ip)
                .addNewCondition()
                .withType(ConditionTypes.POD_INFERENCE_READY)
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .endStatus()
                .build();
    }

    /** A co-tenant's pod with a serving pod's labels is Ready by the kubelet alone: it has no readiness gate. */
    private static Pod withoutInferenceReady(Pod pod) {
        pod.getStatus().getConditions().removeIf(c -> c.getType().equals(ConditionTypes.POD_INFERENCE_READY));
        return pod;
    }

    @Test
    void theDefaultDatasetIsRandomWithDrawnLengthsAndThePromptsStaySelectableByName() {
        BenchmarkRunSpec spec = spec();

        assertThat(String.join(" ", RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of())))
                .contains(" --dataset random ")
                .doesNotContain("--input-len", "--output-len");

        spec.dataset.type = DatasetType.Prompts;
        assertThat(RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of()))
                .containsSubsequence("--dataset", "prompts");
    }

    @Test
    void emptyPromptsAndLevelsSkipTheirPhasesInsteadOfFallingBackToTheRunnersDefaults() {
        BenchmarkRunSpec spec = spec();
        spec.singleRequest.prompts = List.of();
        spec.sweep.concurrency = List.of();

        List<String> args = RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of());

        assertThat(args).contains("--no-single", "--no-sweep").doesNotContain("--prompts", "--concurrency");
    }

    @Test
    void openLoopSloAndCapacitySettingsBecomeRunnerFlags() {
        BenchmarkRunSpec spec = spec();
        spec.sweep.rates = List.of(0.5, 2.0, 7.5);
        spec.sweep.arrival = ArrivalProcess.Constant;
        spec.sweep.maxConcurrency = 64;
        spec.dataset.type = DatasetType.SharedPrefix;
        spec.dataset.sharedPrefix = new SharedPrefixSpec();
        spec.dataset.sharedPrefix.groups = 8;
        spec.dataset.sharedPrefix.prefixTokens = 2048;
        spec.dataset.sharedPrefix.questionTokens = 128;
        spec.dataset.sharedPrefix.outputLength = 256;
        spec.slo = new SloSpec();
        spec.slo.ttftP99Millis = 2000;
        spec.slo.tpotP99Millis = 50;
        spec.slo.itlP99Millis = 100;
        spec.slo.e2eP99Millis = 60000;
        spec.slo.attainment = 0.99;
        spec.capacity = new CapacitySpec();
        spec.capacity.mode = CapacityMode.Rate;

        String args = String.join(" ", RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of()));

        assertThat(args)
                .contains(" --dataset shared-prefix:8,2048,128 --output-len 256 ")
                .contains(" --rate 0.5,2,7.5 --arrival constant --max-concurrency 64 ")
                .contains(" --slo-ttft-p99-ms 2000 --slo-tpot-p99-ms 50 --slo-itl-p99-ms 100 --slo-e2e-p99-ms 60000"
                        + " --slo-attainment 0.99 ")
                .contains(" --find-capacity rate --max-probes 12 --max-search-seconds 1800 ")
                .doesNotContain("--concurrency", "--no-sweep");
    }

    @Test
    void withoutLevelsOrRatesTheDefaultLevelsRunAndAnEmptyListRunsNone() {
        BenchmarkRunSpec spec = spec();
        assertThat(RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of()))
                .containsSubsequence("--concurrency", "8,16,32,48,64");

        spec.sweep.concurrency = List.of();
        spec.capacity = new CapacitySpec();
        spec.capacity.mode = CapacityMode.Concurrency;
        spec.capacity.maxProbes = 5;
        assertThat(String.join(" ", RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of())))
                .contains(" --no-sweep ")
                .contains(" --find-capacity concurrency --max-probes 5 ")
                .doesNotContain("--rate", "--concurrency");
    }

    @Test
    void aShareGptConfigMapIsMountedReadOnlyAndItsFileNamedOnTheCommandLine() {
        BenchmarkRunSpec spec = spec();
        spec.dataset.type = DatasetType.ShareGPT;
        spec.dataset.shareGpt = new ShareGptSpec();
        spec.dataset.shareGpt.configMap = new ConfigMapKeyReference();
        spec.dataset.shareGpt.configMap.name = "sharegpt-sample";
        spec.dataset.shareGpt.configMap.key = "sharegpt.json";
        spec.dataset.shareGpt.maxOutputTokens = 512;

        assertThat(String.join(" ", RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of())))
                .contains(" --dataset sharegpt:/datasets/sharegpt.json --output-len 512 ");
        PodSpec pod = podSpec(spec);
        assertThat(pod.getContainers().get(0).getVolumeMounts()).anySatisfy(mount -> {
            assertThat(mount.getMountPath()).isEqualTo("/datasets");
            assertThat(mount.getReadOnly()).isTrue();
            assertThat(mount.getName()).isEqualTo("dataset");
        });
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("dataset"))
                .singleElement()
                .satisfies(volume -> {
                    assertThat(volume.getConfigMap().getName()).isEqualTo("sharegpt-sample");
                    assertThat(volume.getConfigMap().getItems())
                            .singleElement()
                            .satisfies(item -> assertThat(item.getPath()).isEqualTo("sharegpt.json"));
                });
    }

    @Test
    void aShareGptFileOnAClaimIsMountedReadOnly() {
        BenchmarkRunSpec spec = spec();
        spec.dataset.type = DatasetType.ShareGPT;
        spec.dataset.shareGpt = new ShareGptSpec();
        spec.dataset.shareGpt.persistentVolumeClaim = new ClaimFileReference();
        spec.dataset.shareGpt.persistentVolumeClaim.claimName = "datasets";
        spec.dataset.shareGpt.persistentVolumeClaim.path = "sharegpt/v3.json";

        assertThat(RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of()))
                .containsSubsequence("--dataset", "sharegpt:/datasets/sharegpt/v3.json");
        PodSpec pod = podSpec(spec);
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("dataset"))
                .singleElement()
                .satisfies(volume -> {
                    assertThat(volume.getPersistentVolumeClaim().getClaimName()).isEqualTo("datasets");
                    assertThat(volume.getPersistentVolumeClaim().getReadOnly()).isTrue();
                });
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .filteredOn(mount -> mount.getName().equals("dataset"))
                .singleElement()
                .satisfies(mount -> assertThat(mount.getReadOnly()).isTrue());
    }

    @Test
    void aTraceReplacesTheSweepWithOneReplayPerSpeedAndItsFileIsMountedAsShareGptsIs() {
        BenchmarkRunSpec spec = spec();
        spec.dataset.type = DatasetType.Trace;
        spec.dataset.trace = new TraceSpec();
        spec.dataset.trace.configMap = new ConfigMapKeyReference();
        spec.dataset.trace.configMap.name = "traces";
        spec.dataset.trace.configMap.key = "conversations.jsonl";
        spec.dataset.trace.speeds = List.of(1.0, 2.5);
        spec.dataset.trace.fromSeconds = 60.0;
        spec.dataset.trace.toSeconds = 660.0;
        spec.sweep.maxConcurrency = 128;

        List<String> args = RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of());
        assertThat(String.join(" ", args))
                .contains(" --dataset trace:/datasets/conversations.jsonl --trace-speed 1,2.5 --trace-window 60,660 ")
                .contains(" --max-concurrency 128 ")
                .doesNotContain("--concurrency ")
                .doesNotContain("--no-sweep");
        PodSpec pod = podSpec(spec);
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("dataset"))
                .singleElement()
                .satisfies(volume -> assertThat(volume.getConfigMap().getName()).isEqualTo("traces"));
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .filteredOn(mount -> mount.getName().equals("dataset"))
                .singleElement()
                .satisfies(mount -> assertThat(mount.getReadOnly()).isTrue());
    }

    @Test
    void deadlineOfATraceIsItsWindowAtEachSpeedOrTheCapWithoutAnEnd() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 60;
        spec.warmup.requests = 0;
        spec.singleRequest.prompts = List.of();
        spec.dataset.type = DatasetType.Trace;
        spec.dataset.trace = new TraceSpec();
        spec.dataset.trace.persistentVolumeClaim = new ClaimFileReference();
        spec.dataset.trace.persistentVolumeClaim.claimName = "datasets";
        spec.dataset.trace.persistentVolumeClaim.path = "trace.jsonl";
        spec.dataset.trace.speeds = List.of(1.0, 4.0);
        spec.dataset.trace.fromSeconds = 100.0;
        spec.dataset.trace.toSeconds = 500.0;

        // quality: 3 prompts × T; t1x: 400 s + T; t4x: 100 s + T
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 60 * 3 + (400 + 60) + (100 + 60));
        spec.dataset.trace.toSeconds = null;
        assertThat(JobDeadline.seconds(spec)).isEqualTo(JobDeadline.MAX_SECONDS);
    }

    @Test
    void sessionsBecomeRunnerFlagsAndTheirPausesLengthenTheDeadline() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 60;
        spec.warmup.requests = 0;
        spec.singleRequest.prompts = List.of();
        spec.sweep.concurrency = List.of(8);
        spec.sweep.requestsPerLevel = 80;
        spec.dataset.type = DatasetType.Sessions;
        spec.dataset.sessions = new SessionsSpec();
        spec.dataset.sessions.turns = 10;
        spec.dataset.sessions.firstTurnTokens = 2000;
        spec.dataset.sessions.turnTokens = 150;
        spec.dataset.sessions.outputLength = 300;
        spec.dataset.sessions.thinkTimeSeconds = 1.5;
        spec.dataset.sessions.sessionHeader = "X-SMG-Routing-Key";

        assertThat(String.join(" ", RunnerArguments.of(spec, "http://kimi.llm.svc:30000", "kimi-k2", List.of())))
                .contains(" --dataset sessions:10,2000,150 --output-len 300 --think-time 1.5"
                        + " --session-header X-SMG-Routing-Key ")
                .contains(" --concurrency 8 ");
        // quality: 3 prompts × T; c8: 10 rounds, each T and a pause of at most 10 × 1.5 s
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 60 * 3 + 10 * (60 + 15));
    }

    @Test
    void deadlineOfARateSweepAndACapacitySearch() {
        BenchmarkRunSpec spec = spec();
        spec.requestTimeoutSeconds = 60;
        spec.warmup.requests = 0;
        spec.singleRequest.prompts = List.of();
        spec.sweep.rates = List.of(0.1, 4.0);
        spec.capacity = new CapacitySpec();
        spec.capacity.mode = CapacityMode.Rate;

        // r0.1: 8 requests (the minimum) over 80 s; r4: 120 requests over 30 s; each + T; search: 1800 + 4 T
        assertThat(JobDeadline.seconds(spec)).isEqualTo(600 + 60 * 3 + (80 + 60) + (30 + 60) + 1800 + 4 * 60);
    }

    @Test
    void progressIsTheLastProgressLineOfTheLogWithTheRunningStage() {
        assertThat(JobObserver.progressOf(
                        "warming up\nPROGRESS 0/5 single\nPROGRESS 1/5 c8\nc8: 32 requests\nPROGRESS 2/5 c16\n"
                                + "c16: 10/64 requests finished after 5 s\n"))
                .isEqualTo("2/5 c16");
        assertThat(JobObserver.progressOf("PROGRESS 4/5 c64\r\nPROGRESS 5/5\r\n"))
                .isEqualTo("5/5");
        assertThat(JobObserver.progressOf("PROGRESS 0/6 single\nPROGRESS 1/6 quality\nquality: 3 prompts"))
                .as("the quality stage, between the single phase and the sweep")
                .isEqualTo("1/6 quality");
        assertThat(JobObserver.progressOf("no progress yet")).isNull();
    }

    @Test
    void progressSkipsLinesNoRunnerWrites() {
        String earlier = "PROGRESS 1/5 c8\n";
        assertThat(JobObserver.progressOf(earlier + "PROGRESS 2/5 " + "x".repeat(33) + "\n"))
                .as("stage too long")
                .isEqualTo("1/5 c8");
        assertThat(JobObserver.progressOf(earlier + "PROGRESS 2/5 c\u001b[2J\n"))
                .as("control characters")
                .isEqualTo("1/5 c8");
        assertThat(JobObserver.progressOf(earlier + "PROGRESS 6/5 c16\n"))
                .as("more done than total")
                .isEqualTo("1/5 c8");
        assertThat(JobObserver.progressOf(earlier + "PROGRESS 9999999/99999999\n"))
                .as("huge counts")
                .isEqualTo("1/5 c8");
        assertThat(JobObserver.progressOf(earlier + "PROGRESS 2/5 c16 and more\n"))
                .as("trailing text")
                .isEqualTo("1/5 c8");
    }

    private static BenchmarkRunSpec spec() {
        BenchmarkRunSpec spec = new BenchmarkRunSpec();
        spec.target = new BenchmarkTarget();
        spec.target.url = "http://sglang.example:30000";
        spec.target.model = "kimi-k2";
        return spec;
    }

    /** The runner pod of {@code spec} against kimi-k2, as the Job {@code kimi-bench} runs it, with the spec's key. */
    private static PodSpec podSpec(BenchmarkRunSpec spec) {
        return BenchmarkJobDependent.podSpec(
                spec,
                "kimi-bench",
                "http://kimi.llm.svc:30000",
                "kimi-k2",
                List.of(),
                spec.target.apiKeySecret,
                "runner:1");
    }
}
