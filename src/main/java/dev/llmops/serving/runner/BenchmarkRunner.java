package dev.llmops.serving.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a benchmark plan against one server: a readiness check (one real completion), warm-up, then each stage —
 * the single-request phase, the closed-loop concurrency levels and the open-loop rates — and reports them.
 *
 * <p>Requests are sent from completion callbacks (closed loop) or a timer (open loop), never from a thread that
 * waits for them; the calling thread only waits for each stage to end.
 */
public final class BenchmarkRunner {

    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(300);
    private static final int READINESS_MAX_TOKENS = 8;
    private static final Duration MODELS_TIMEOUT = Duration.ofSeconds(30);

    private final BenchmarkConfig config;
    private final OpenAiClient client;
    private final BenchmarkListener listener;
    private final PromptSource prompts;
    private final CompletionRequest template;

    public BenchmarkRunner(BenchmarkConfig config, OpenAiClient client, BenchmarkListener listener) {
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        this.config = config;
        this.client = client;
        this.listener = listener;
        this.prompts = new PromptSource(config);
        this.template = CompletionRequest.builder(config.url(), config.model())
                .endpoint(config.endpoint())
                .temperature(config.temperature())
                .topP(config.topP())
                .apiKey(config.apiKey())
                .timeout(config.timeout())
                .continuousUsage(config.continuousUsage())
                .maxTokens(config.maxTokens())
                .build();
    }

    /**
     * Runs the whole plan.
     *
     * @throws TargetNotReadyException when the readiness check fails; nothing was measured
     */
    public BenchmarkReport run() throws TargetNotReadyException, InterruptedException {
        String startedAt = Instant.now().toString();
        List<String> warnings = new ArrayList<>();
        datasetWarnings(warnings);
        checkModelIsListed(warnings);
        checkReadiness();
        warmUp(warnings);
        List<StagePlan> plan = StagePlan.of(config);
        List<StageReport> reports = new ArrayList<>();
        List<SingleRequestReport> singles = new ArrayList<>();
        try (ClientLagProbe probe = new ClientLagProbe(client.callbackExecutor())) {
            probe.start();
            for (int i = 0; i < plan.size(); i++) {
                StagePlan stage = plan.get(i);
                listener.stageStarted(stage, i, plan.size());
                probe.readAndReset();
                StageRecorder recorder = runStage(stage);
                reports.add(recorder.report(probe.readAndReset()));
                singles.addAll(recorder.singles());
                listener.stageFinished(reports.get(i), i + 1, plan.size());
            }
        }
        return BenchmarkReport.of(config, startedAt, reports, singles, warnings);
    }

    private void datasetWarnings(List<String> warnings) {
        if (config.shareGpt() != null) {
            config.shareGpt().warnings().forEach(warning -> {
                warnings.add(warning);
                listener.warning(warning);
            });
        }
    }

    /** A model the server does not list usually means a typo or another served name: say so before anything fails. */
    private void checkModelIsListed(List<String> warnings) throws InterruptedException {
        Duration timeout = config.timeout().compareTo(MODELS_TIMEOUT) < 0 ? config.timeout() : MODELS_TIMEOUT;
        List<String> listed = ServedModels.of(await(client.get(config.url(), "/v1/models", config.apiKey(), timeout)));
        if (!listed.isEmpty() && !listed.contains(config.model())) {
            String warning = "the server lists " + ServedModels.names(listed) + " but not " + config.model()
                    + ", the model this run asks for: check --model";
            warnings.add(warning);
            listener.warning(warning);
        }
    }

    private void checkReadiness() throws TargetNotReadyException, InterruptedException {
        Duration timeout = config.timeout().compareTo(READINESS_TIMEOUT) < 0 ? config.timeout() : READINESS_TIMEOUT;
        RequestResult result = await(client.complete(template.withPrompt(prompts.warmup()).toBuilder()
                .maxTokens(READINESS_MAX_TOKENS)
                .timeout(timeout)
                .build()));
        listener.readinessChecked(result);
        if (!result.succeeded()) {
            throw new TargetNotReadyException(result);
        }
    }

    private void warmUp(List<String> warnings) throws InterruptedException {
        List<CompletableFuture<RequestResult>> sent = new ArrayList<>();
        for (int i = 0; i < config.warmupRequests(); i++) {
            sent.add(client.complete(template.withPrompt(prompts.warmup()).withMaxTokens(config.warmupMaxTokens())));
        }
        int failed = 0;
        String lastError = null;
        for (CompletableFuture<RequestResult> warmup : sent) {
            RequestResult result = await(warmup);
            if (!result.succeeded()) {
                failed++;
                lastError = result.failureClass() + ": " + result.errorMessage();
            }
        }
        if (failed > 0) {
            warnings.add("warm-up: " + failed + " of " + config.warmupRequests() + " requests failed (last: "
                    + lastError + ")");
        }
        listener.warmupFinished(config.warmupRequests() - failed, failed);
    }

    private StageRecorder runStage(StagePlan stage) throws InterruptedException {
        boolean measuredSweep = stage.mode() != StagePlan.Mode.SINGLE;
        int maxTokens = measuredSweep ? config.measuredMaxTokens() : config.maxTokens();
        StageRecorder recorder = new StageRecorder(
                stage, maxTokens, measuredSweep && config.ignoreEos() && !config.variableOutputLength());
        CompletionRequest request = template.toBuilder()
                .maxTokens(maxTokens)
                .ignoreEos(measuredSweep && config.ignoreEos())
                .build();
        CompletableFuture<Void> finished = switch (stage.mode()) {
            case SINGLE -> runSingles(stage, request, recorder);
            case CLOSED_LOOP -> runClosedLoop(stage, request, recorder);
            case OPEN_LOOP -> runOpenLoop(stage, request, recorder);
        };
        long start = System.nanoTime();
        while (true) {
            try {
                finished.get(PROGRESS_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
                return recorder;
            } catch (TimeoutException stillRunning) {
                listener.stageProgress(stage, recorder.done(), (System.nanoTime() - start) / 1e9);
            } catch (ExecutionException e) {
                throw new IllegalStateException("stage " + stage.name() + " broke: " + e.getCause(), e.getCause());
            }
        }
    }

    /** Each configured prompt alone, one after the other. */
    private CompletableFuture<Void> runSingles(StagePlan stage, CompletionRequest request, StageRecorder recorder) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (String prompt : config.prompts()) {
            chain = chain.thenCompose(ignored -> client.complete(request.withPrompt(prompt))
                    .thenAccept(result -> record(stage, recorder, result, result.sendNanos(), prompt)));
        }
        return chain;
    }

    /** N workers, each sending its next request from the completion of its previous one. */
    private CompletableFuture<Void> runClosedLoop(StagePlan stage, CompletionRequest request, StageRecorder recorder) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        AtomicInteger issued = new AtomicInteger();
        AtomicInteger workers = new AtomicInteger(stage.concurrency());
        long deadline = stage.duration() == null
                ? Long.MAX_VALUE
                : System.nanoTime() + stage.duration().toNanos();
        PromptSource.StageRequests requests = prompts.forStage(stage.name());
        Runnable[] worker = new Runnable[1];
        worker[0] = () -> {
            boolean more = stage.duration() == null
                    ? issued.getAndIncrement() < stage.requests()
                    : System.nanoTime() < deadline;
            if (!more) {
                if (workers.decrementAndGet() == 0) {
                    finished.complete(null);
                }
                return;
            }
            DatasetRequest next = requests.next();
            client.complete(next.applyTo(request)).whenComplete((result, error) -> {
                try {
                    record(stage, recorder, result, result.sendNanos(), next.prompt());
                    worker[0].run();
                } catch (RuntimeException e) {
                    finished.completeExceptionally(e);
                }
            });
        };
        for (int i = 0; i < stage.concurrency(); i++) {
            worker[0].run();
        }
        return finished;
    }

    /**
     * Poisson arrivals on an absolute schedule from one timer thread. Each request keeps its intended send time;
     * latency counts from it, so a late send (schedule lag) shows up as latency instead of hiding queueing.
     */
    private CompletableFuture<Void> runOpenLoop(StagePlan stage, CompletionRequest request, StageRecorder recorder) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        ScheduledExecutorService timer =
                new ScheduledThreadPoolExecutor(1, OpenAiClient.daemonThreads("bench-arrivals-" + stage.name()));
        Random arrivals = new Random(config.seed() * 31 + stage.name().hashCode());
        long start = System.nanoTime();
        long end = stage.duration() == null
                ? Long.MAX_VALUE
                : start + stage.duration().toNanos();
        AtomicInteger inFlight = new AtomicInteger(1);
        PromptSource.StageRequests requests = prompts.forStage(stage.name());
        Runnable arrive = new Runnable() {
            private long intended = start;
            private int sent;

            @Override
            public void run() {
                try {
                    while (intended <= System.nanoTime()) {
                        if (stage.duration() == null ? sent >= stage.requests() : intended >= end) {
                            timer.shutdown();
                            if (inFlight.decrementAndGet() == 0) {
                                finished.complete(null);
                            }
                            return;
                        }
                        send(intended);
                        sent++;
                        intended += Math.round(-Math.log(1 - arrivals.nextDouble()) / stage.rate() * 1e9);
                    }
                    timer.schedule(this, intended - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (RuntimeException e) {
                    timer.shutdown();
                    finished.completeExceptionally(e);
                }
            }

            private void send(long intendedNanos) {
                DatasetRequest next = requests.next();
                inFlight.incrementAndGet();
                client.complete(next.applyTo(request)).whenComplete((result, error) -> {
                    try {
                        record(stage, recorder, result, intendedNanos, next.prompt());
                    } catch (RuntimeException e) {
                        finished.completeExceptionally(e);
                    }
                    if (inFlight.decrementAndGet() == 0) {
                        finished.complete(null);
                    }
                });
            }
        };
        timer.execute(arrive);
        return finished;
    }

    private void record(
            StagePlan stage, StageRecorder recorder, RequestResult result, long intendedNanos, String prompt) {
        recorder.record(result, intendedNanos, prompt);
        listener.requestFinished(stage, result);
    }

    private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the client failed instead of reporting a failed request", e.getCause());
        }
    }
}
