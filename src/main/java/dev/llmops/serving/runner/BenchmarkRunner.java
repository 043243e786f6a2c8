package dev.llmops.serving.runner;

import dev.llmops.serving.api.contract.QualityOutput;
import dev.llmops.serving.api.contract.RunPlan;
import dev.llmops.serving.runner.output.BenchmarkReport;
import dev.llmops.serving.runner.output.CapacityReport;
import dev.llmops.serving.runner.output.SingleRequestReport;
import dev.llmops.serving.runner.output.StageReport;
import dev.llmops.serving.runner.plan.BenchmarkConfig;
import dev.llmops.serving.runner.plan.CapacitySearch;
import dev.llmops.serving.runner.plan.Slo;
import dev.llmops.serving.runner.plan.StagePlan;
import dev.llmops.serving.runner.shard.Barrier;
import dev.llmops.serving.runner.shard.Shard;
import dev.llmops.serving.runner.shard.StageFigures;
import dev.llmops.serving.runner.statistics.LatencySummary;
import dev.llmops.serving.runner.transport.CompletionRequest;
import dev.llmops.serving.runner.transport.OpenAiClient;
import dev.llmops.serving.runner.transport.RequestResult;
import dev.llmops.serving.runner.transport.ServedModels;
import dev.llmops.serving.runner.transport.TargetNotReadyException;
import dev.llmops.serving.runner.workload.Arrival;
import dev.llmops.serving.runner.workload.ArrivalSchedule;
import dev.llmops.serving.runner.workload.DatasetRequest;
import dev.llmops.serving.runner.workload.PromptSource;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs a benchmark plan against one server: a readiness check (one real completion), warm-up, then each stage —
 * the single-request phase, the closed-loop concurrency levels, the open-loop rates and the probes of a capacity search
 * — and reports them.
 *
 * <p>Requests are sent from completion callbacks (closed loop) or a timer (open loop), never from a thread that
 * waits for them; the calling thread only waits for each stage to end.
 */
public final class BenchmarkRunner {

    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(300);
    private static final int READINESS_MAX_TOKENS = 8;
    private static final Duration MODELS_TIMEOUT = Duration.ofSeconds(30);
    private static final int OPEN_LOOP_WARMUP_SECONDS = 2;
    private static final int MAX_OPEN_LOOP_WARMUP_REQUESTS = 2000;

    private final BenchmarkConfig config;
    private final OpenAiClient client;
    private final BenchmarkListener listener;
    private final PromptSource prompts;
    private final CompletionRequest template;
    private final Shard shard;
    private final Barrier barrier;

    public BenchmarkRunner(BenchmarkConfig config, OpenAiClient client, BenchmarkListener listener) {
        this(config, client, listener, Shard.WHOLE, Barrier.NONE);
    }

    /**
     * A runner that sends {@code shard}'s part of the workload, meeting the other shards at {@code barrier} before each
     * stage. Only shard 0 sends the single-request phase and the quality stage and reads the server's metrics, so they
     * are measured once, as by one runner. A capacity search decides each probe from the figures of all shards, which
     * they exchange at the barrier, so all take the same probes.
     */
    public BenchmarkRunner(
            BenchmarkConfig config, OpenAiClient client, BenchmarkListener listener, Shard shard, Barrier barrier) {
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        this.shard = shard;
        this.barrier = barrier;
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
        Consumer<String> warn = warning -> {
            warnings.add(warning);
            listener.warning(warning);
        };
        datasetWarnings(warnings);
        checkModelIsListed(warnings);
        checkReadiness();
        warmUp(warnings);
        List<StagePlan> plan = StagePlan.of(config);
        warmUpOpenLoop(plan);
        int total = plan.size() + (config.findCapacity() == null ? 0 : config.maxProbes());
        List<StageReport> reports = new ArrayList<>();
        List<SingleRequestReport> singles = new ArrayList<>();
        StageReport singleStage = null;
        CapacityReport capacity = null;
        try (ClientLagProbe probe = new ClientLagProbe(client.callbackExecutor());
                ServerTelemetry telemetry = new ServerTelemetry(metricsUrls(), warn)) {
            probe.start();
            boolean qualityDue = config.quality() && shard.index() == 0;
            for (int i = 0; i < plan.size(); i++) {
                StagePlan stage = plan.get(i);
                if (qualityDue && stage.mode() != RunPlan.Mode.SINGLE) {
                    runQuality(warn, i, total);
                    qualityDue = false;
                }
                listener.stageStarted(stage, i, total);
                telemetry.stageStarted(stage.name());
                probe.readAndReset();
                long origin = startTogether(stage);
                StageRecorder recorder = runStage(stage, null, origin);
                StageFigures figures = recorder.finish(
                        shard.index(), probe.readAndReset(), false, telemetry.stageFinished(stage.name()));
                listener.stageMeasured(figures);
                reports.add(figures.report());
                singles.addAll(recorder.singles());
                if (stage.mode() == RunPlan.Mode.SINGLE && config.findCapacity() != null) {
                    singleStage =
                            barrier.exchange(stage.name(), figures).figures().report();
                }
                listener.stageFinished(reports.get(i), i + 1, total);
            }
            if (qualityDue) {
                runQuality(warn, plan.size(), total);
            }
            if (config.findCapacity() != null) {
                capacity = findCapacity(probe, telemetry, reports, singleStage);
                listener.capacityFound(capacity);
            }
        }
        return BenchmarkReport.of(config, startedAt, reports, singles, warnings, capacity);
    }

    /**
     * Runs probes as the {@link CapacitySearch} asks for them, each a stage appended to {@code reports}.
     * Progress counts the probes against the budget, and the last stage reports the total actually run. Each probe is
     * judged on the figures of every shard (from the barrier's exchange), and the search's time on the barrier's one
     * clock, so every shard takes the same next probe; {@code singleStage} is the single-request phase of all shards
     * (null without one).
     */
    private CapacityReport findCapacity(
            ClientLagProbe probe, ServerTelemetry telemetry, List<StageReport> reports, StageReport singleStage)
            throws InterruptedException {
        CapacitySearch search = new CapacitySearch(
                config.findCapacity(),
                startRate(singleStage),
                config.maxProbes(),
                config.maxSearch().toSeconds());
        long searchStart = 0;
        Optional<Double> load = search.next(0);
        int total = reports.size() + config.maxProbes();
        for (int k = 1; load.isPresent(); k++) {
            StagePlan stage = StagePlan.probe(config, k, load.get());
            listener.stageStarted(stage, reports.size(), total);
            telemetry.stageStarted(stage.name());
            probe.readAndReset();
            long origin = startTogether(stage);
            SaturationCheck check = new SaturationCheck(
                    stage.mode() == RunPlan.Mode.OPEN_LOOP,
                    plannedRequests(stage),
                    config.slo().attainment());
            boolean[] stopped = new boolean[1];
            StageRecorder recorder = runStage(stage, progress -> stopped[0] |= check.shouldStop(progress), origin);
            StageFigures figures = recorder.finish(
                    shard.index(), probe.readAndReset(), stopped[0], telemetry.stageFinished(stage.name()));
            listener.stageMeasured(figures);
            StageReport report = figures.report();
            reports.add(report);
            Barrier.Exchange all = barrier.exchange(stage.name(), figures);
            StageReport allShards = all.figures().report();
            if (k == 1) {
                // The search began when the first probe did: its window before the instant its figures were added.
                searchStart = all.clockNanos() - Math.round(allShards.durationSeconds() * 1e9);
            }
            boolean stoppedEarly = allShards.stoppedEarly() != null;
            boolean met = !stoppedEarly
                    && allShards.sloAttainment() != null
                    && allShards.sloAttainment() >= config.slo().attainment();
            search.record(new CapacitySearch.Verdict(load.get(), met, stoppedEarly, allShards));
            load = search.next((all.clockNanos() - searchStart) / 1e9);
            if (load.isEmpty()) {
                total = reports.size();
            }
            listener.stageFinished(report, reports.size(), total);
        }
        return CapacityReport.of(config.findCapacity(), search);
    }

    /**
     * Meets the other shards before {@code stage} and waits for the instant agreed, which is returned as this process's
     * {@link System#nanoTime()}: the stage's origin, from which its arrival schedule and figures count.
     */
    private long startTogether(StagePlan stage) throws InterruptedException {
        long origin = barrier.await(stage.name());
        long wait = origin - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        return origin;
    }

    /** The server's metrics endpoints; none on shards other than 0, so the server's figures are read once. */
    private List<URI> metricsUrls() {
        if (shard.index() > 0) {
            return List.of();
        }
        return config.metricsUrls().isEmpty()
                ? List.of(ServerTelemetry.defaultMetricsUrl(config.url()))
                : config.metricsUrls();
    }

    /**
     * A rate search starts at what one stream served in the single phase (1 / the mean E2E of its successful
     * prompts), else 1 request/s.
     */
    private static double startRate(StageReport singleStage) {
        LatencySummary e2e = singleStage == null ? null : singleStage.latency(StageReport.E2E);
        return e2e != null && e2e.mean() > 0 ? 1000 / e2e.mean() : 1;
    }

    /**
     * The requests of {@code stage} over every shard, or 0 when unknown (a closed loop run for a duration): a shard
     * stops a probe as out of reach only when its own failures alone leave the whole probe's attainment out of reach.
     */
    private static int plannedRequests(StagePlan stage) {
        if (stage.requests() > 0) {
            return stage.requests();
        }
        return stage.mode() == RunPlan.Mode.OPEN_LOOP
                ? (int) Math.ceil(stage.rate() * stage.duration().toNanos() / 1e9)
                : 0;
    }

    private void datasetWarnings(List<String> warnings) {
        List<String> readingWarnings = new ArrayList<>();
        if (config.shareGpt() != null) {
            readingWarnings.addAll(config.shareGpt().warnings());
        }
        if (config.trace() != null) {
            readingWarnings.addAll(config.trace().trace().warnings());
        }
        readingWarnings.forEach(warning -> {
            warnings.add(warning);
            listener.warning(warning);
        });
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

    /**
     * Before the first rate stage, {@value #OPEN_LOOP_WARMUP_SECONDS} s of warm-up arrivals at its rate (at most
     * {@value #MAX_OPEN_LOOP_WARMUP_REQUESTS} requests), unmeasured: the burst of {@link #warmUp} leaves the open-loop
     * path uncompiled, and its JIT compilation would otherwise run late on the stage's first sends.
     */
    private void warmUpOpenLoop(List<StagePlan> plan) throws InterruptedException {
        Optional<StagePlan> firstRate = plan.stream()
                .filter(stage -> stage.mode() == RunPlan.Mode.OPEN_LOOP)
                .findFirst();
        if (config.warmupRequests() == 0 || firstRate.isEmpty()) {
            return;
        }
        double rate = firstRate.get().rate() / shard.count();
        int requests = (int) Math.min(MAX_OPEN_LOOP_WARMUP_REQUESTS, Math.ceil(rate * OPEN_LOOP_WARMUP_SECONDS));
        Arrival arrival = firstRate.get().arrival() == Arrival.TRACE
                ? Arrival.POISSON
                : firstRate.get().arrival();
        StagePlan warmup = new StagePlan(
                "warmup-" + firstRate.get().name(),
                RunPlan.Mode.OPEN_LOOP,
                0,
                rate,
                requests,
                null,
                arrival,
                firstRate.get().maxInFlight(),
                0);
        CompletionRequest request = template.withMaxTokens(config.warmupMaxTokens());
        await(runOpenLoop(
                warmup,
                Shard.WHOLE,
                request,
                new StageRecorder(warmup, config.warmupMaxTokens(), false, Slo.NONE, System.nanoTime()),
                new AtomicBoolean(),
                () -> new DatasetRequest(null, prompts.warmup(), config.warmupMaxTokens(), 0),
                new BenchmarkListener() {}));
    }

    /**
     * The quality stage, not measured: each single-request prompt once, greedy (temperature 0, top_p 1), asking for
     * logprobs so the output's tokens can be compared with another server's for the same prompt. It runs after
     * {@code finishedStages} of {@code stages}, and says so, so progress names it while it runs.
     */
    private void runQuality(Consumer<String> warn, int finishedStages, int stages) throws InterruptedException {
        listener.qualityStarted(finishedStages, stages);
        CompletionRequest request = template.toBuilder()
                .temperature(0.0)
                .topP(1.0)
                .maxTokens(config.qualityMaxTokens())
                .logprobs(true)
                .build();
        List<QualityOutput> outputs = new ArrayList<>();
        List<String> qualityPrompts = config.prompts();
        for (int i = 0; i < qualityPrompts.size(); i++) {
            RequestResult result = await(client.complete(request.withPrompt(qualityPrompts.get(i))));
            if (result.succeeded()) {
                outputs.add(new QualityOutput(i, result.tokenPieces(), result.finishReason()));
            } else {
                warn.accept("quality: prompt " + i + " failed, its output is not compared (" + result.failureClass()
                        + ": " + result.errorMessage() + ")");
            }
        }
        listener.qualityFinished(outputs);
    }

    /**
     * Runs one stage to its end. With a {@code monitor}, the stage's progress is shown to it every
     * {@link SaturationCheck#TICK_MILLIS} ms; once the monitor returns true the stage sends nothing more and ends when
     * its requests in flight have finished.
     */
    private StageRecorder runStage(StagePlan stage, Predicate<StageRecorder.Progress> monitor, long origin)
            throws InterruptedException {
        boolean measuredSweep = stage.mode() != RunPlan.Mode.SINGLE;
        int maxTokens = measuredSweep ? config.measuredMaxTokens() : config.maxTokens();
        StageRecorder recorder = new StageRecorder(
                stage,
                maxTokens,
                measuredSweep && config.ignoreEos() && !config.variableOutputLength(),
                config.slo(),
                origin);
        CompletionRequest request = template.toBuilder()
                .maxTokens(maxTokens)
                .ignoreEos(measuredSweep && config.ignoreEos())
                .build();
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> finished = switch (stage.mode()) {
            case SINGLE -> runSingles(stage, request, recorder);
            case CLOSED_LOOP -> runClosedLoop(stage, request, recorder, stop);
            case OPEN_LOOP -> {
                PromptSource.StageRequests requests = prompts.forStage(stage.name());
                yield runOpenLoop(stage, shard, request, recorder, stop, () -> requests.next(shard), listener);
            }
        };
        long start = System.nanoTime();
        long nextProgress = start + PROGRESS_INTERVAL.toNanos();
        long tick = monitor == null ? PROGRESS_INTERVAL.toMillis() : SaturationCheck.TICK_MILLIS;
        while (true) {
            try {
                finished.get(tick, TimeUnit.MILLISECONDS);
                return recorder;
            } catch (TimeoutException stillRunning) {
                if (monitor != null && !stop.get() && monitor.test(recorder.progress())) {
                    stop.set(true);
                    listener.warning(stage.name() + ": stopped early, the server is over-saturated for the SLO");
                }
                if (System.nanoTime() - nextProgress >= 0) {
                    nextProgress += PROGRESS_INTERVAL.toNanos();
                    listener.stageProgress(stage, recorder.done(), (System.nanoTime() - start) / 1e9);
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException("stage " + stage.name() + " broke: " + e.getCause(), e.getCause());
            }
        }
    }

    /** Each configured prompt alone, one after the other; on shard 0 only, the others wait for it. */
    private CompletableFuture<Void> runSingles(StagePlan stage, CompletionRequest request, StageRecorder recorder) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        List<String> singlePrompts = shard.index() == 0 ? config.prompts() : List.of();
        for (int i = 0; i < singlePrompts.size(); i++) {
            String prompt = singlePrompts.get(i);
            int index = i;
            chain = chain.thenCompose(ignored -> client.complete(request.withPrompt(prompt))
                    .thenAccept(result -> record(
                            stage, recorder, result, result.sendNanos(), new DatasetRequest(null, prompt, 0, index))));
        }
        return chain;
    }

    /**
     * The shard's streams, each sending its next request from the completion of its previous one. With sessions each
     * stream is a user who holds one conversation at a time and thinks between its turns, idle meanwhile; a pause that
     * would end past the stage's duration ends the stream instead.
     */
    private CompletableFuture<Void> runClosedLoop(
            StagePlan stage, CompletionRequest request, StageRecorder recorder, AtomicBoolean stop) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        AtomicInteger issued = new AtomicInteger();
        int streamCount = shard.streams(stage.concurrency());
        int requestCount = shard.requests(stage.requests());
        AtomicInteger streams = new AtomicInteger(streamCount);
        long deadline = stage.duration() == null
                ? Long.MAX_VALUE
                : System.nanoTime() + stage.duration().toNanos();
        PromptSource.StageRequests requests = prompts.forStage(stage.name());
        final class Stream implements Runnable {
            private PromptSource.Conversation conversation;

            @Override
            public void run() {
                boolean more = !stop.get()
                        && (stage.duration() == null
                                ? issued.getAndIncrement() < requestCount
                                : System.nanoTime() < deadline);
                if (!more) {
                    end();
                    return;
                }
                if (conversation == null || !conversation.hasNext()) {
                    conversation = requests.nextConversation(shard);
                }
                DatasetRequest next = conversation.next();
                recorder.issued();
                client.complete(next.applyTo(request)).whenComplete((result, error) -> {
                    try {
                        record(stage, recorder, result, result.sendNanos(), next);
                        long thinkNanos = conversation.hasNext() ? conversation.thinkNanos() : 0;
                        if (thinkNanos == 0) {
                            run();
                        } else if (stage.duration() == null || System.nanoTime() + thinkNanos - deadline < 0) {
                            CompletableFuture.delayedExecutor(
                                            thinkNanos, TimeUnit.NANOSECONDS, client.callbackExecutor())
                                    .execute(this);
                        } else {
                            end();
                        }
                    } catch (RuntimeException e) {
                        finished.completeExceptionally(e);
                    }
                });
            }

            private void end() {
                if (streams.decrementAndGet() == 0) {
                    finished.complete(null);
                }
            }
        }
        for (int i = 0; i < streamCount; i++) {
            new Stream().run();
        }
        if (streamCount == 0) {
            finished.complete(null);
        }
        return finished;
    }

    /**
     * Arrivals on an absolute schedule ({@link ArrivalSchedule}) from one timer thread, which never waits on responses.
     * Each request keeps its intended send time; latency counts from it, so a late send (schedule lag) shows up as
     * latency instead of hiding queueing. With a cap on requests in flight, a request due while the cap is reached
     * waits in a FIFO and is sent when a request finishes, still timed from its intended send. A shard keeps the
     * arrivals of the schedule whose positions are its own.
     */
    private CompletableFuture<Void> runOpenLoop(
            StagePlan stage,
            Shard part,
            CompletionRequest request,
            StageRecorder recorder,
            AtomicBoolean stop,
            Supplier<DatasetRequest> requests,
            BenchmarkListener listener) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        ScheduledExecutorService timer =
                new ScheduledThreadPoolExecutor(1, OpenAiClient.daemonThreads("bench-arrivals-" + stage.name()));
        ArrivalSchedule schedule = ArrivalSchedule.of(stage, config.seed(), config.trace());
        long start = recorder.origin();
        long end = stage.duration() == null
                ? Long.MAX_VALUE
                : start + stage.duration().toNanos();
        Object slots = new Object();
        Deque<Due> waiting = new ArrayDeque<>();
        int[] inFlight = new int[1];
        boolean[] scheduling = {true};
        Runnable maybeFinish = () -> {
            synchronized (slots) {
                if (!scheduling[0] && inFlight[0] == 0 && (waiting.isEmpty() || stop.get())) {
                    finished.complete(null);
                }
            }
        };
        Consumer<Due> send = new Consumer<>() {
            @Override
            public void accept(Due due) {
                client.complete(due.body()).whenComplete((result, error) -> {
                    try {
                        recorder.record(
                                result,
                                due.intendedNanos(),
                                due.request().prompt(),
                                due.request().turn());
                        listener.requestFinished(stage, due.request().index(), due.intendedNanos(), result);
                    } catch (RuntimeException e) {
                        finished.completeExceptionally(e);
                    }
                    Due next;
                    synchronized (slots) {
                        next = stop.get() ? null : waiting.poll();
                        if (next == null) {
                            inFlight[0]--;
                        }
                    }
                    if (next != null) {
                        accept(next);
                    }
                    maybeFinish.run();
                });
            }
        };
        Runnable arrive = new Runnable() {
            /** The position of the next arrival in the whole schedule. */
            private long position = -1;

            private long intended = nextIntended();
            /** The next request, made and serialised while waiting for its send time: a long prompt takes a while. */
            private Due prepared;

            @Override
            public void run() {
                try {
                    while (intended <= System.nanoTime()) {
                        if (stop.get() || (stage.duration() == null ? position >= stage.requests() : intended >= end)) {
                            timer.shutdown();
                            synchronized (slots) {
                                scheduling[0] = false;
                            }
                            maybeFinish.run();
                            return;
                        }
                        Due due = (prepared != null ? prepared : prepare(requests.get(), request)).at(intended);
                        prepared = null;
                        recorder.issued();
                        listener.requestScheduled(stage, intended);
                        boolean free;
                        synchronized (slots) {
                            free = stage.maxInFlight() == 0 || inFlight[0] < stage.maxInFlight();
                            if (free) {
                                inFlight[0]++;
                            } else {
                                waiting.add(due);
                            }
                        }
                        if (free) {
                            send.accept(due);
                        }
                        intended = nextIntended();
                    }
                    if (prepared == null && (stage.duration() != null || position < stage.requests())) {
                        prepared = prepare(requests.get(), request);
                    }
                    timer.schedule(this, intended - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (RuntimeException e) {
                    timer.shutdown();
                    finished.completeExceptionally(e);
                }
            }

            /** The intended send of the shard's next arrival, passing over the other shards'. */
            private long nextIntended() {
                long offset;
                do {
                    position++;
                    offset = schedule.nextOffsetNanos();
                } while (!part.owns(position));
                return start + offset;
            }
        };
        timer.execute(arrive);
        return finished;
    }

    /**
     * An open-loop request as it is sent: what the dataset asked, its body serialised, and when it was due
     * ({@link Long#MIN_VALUE} until scheduled).
     */
    private record Due(long intendedNanos, DatasetRequest request, OpenAiClient.Prepared body) {
        Due at(long intended) {
            return new Due(intended, request, body);
        }
    }

    private static Due prepare(DatasetRequest next, CompletionRequest template) {
        return new Due(Long.MIN_VALUE, next, OpenAiClient.prepare(next.applyTo(template)));
    }

    private void record(
            StagePlan stage, StageRecorder recorder, RequestResult result, long intendedNanos, DatasetRequest request) {
        recorder.record(result, intendedNanos, request.prompt(), request.turn());
        listener.requestFinished(stage, request.index(), intendedNanos, result);
    }

    private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the client failed instead of reporting a failed request", e.getCause());
        }
    }
}
