package dev.llmops.serving.operator.benchmark.archive;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.ArchiveStatus;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRunStatus;
import dev.llmops.serving.archive.ArchiveException;
import dev.llmops.serving.archive.RunArchive;
import dev.llmops.serving.comparison.SamplesRead;
import dev.llmops.serving.operator.benchmark.comparison.SampleStore;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Runs as the archive keeps them, for comparisons whose baseline or reference is gone from the cluster, or whose
 * samples ConfigMap is: a comparison with last month's baseline still pairs requests and has intervals. Whoever may
 * write the bucket may write a record, so a run read back carries no more trust than the bucket does.
 */
public final class ArchivedRuns {

    private static final Logger LOG = Logger.getLogger(ArchivedRuns.class);

    private final RunArchive archive;

    public ArchivedRuns(RunArchive archive) {
        this.archive = archive;
    }

    /**
     * The last archived run of that name, its status.archive.url saying where it was read from; empty when none was
     * archived, or the archive cannot be read (logged: the comparison then says the run does not exist).
     */
    public Optional<BenchmarkRun> find(String namespace, String name) {
        try {
            return archive.latest(namespace, name).flatMap(archived -> parse(archived, namespace, name));
        } catch (ArchiveException e) {
            LOG.warnf("Run %s/%s is not in the cluster and the archive could not be read: %s", namespace, name, e);
            return Optional.empty();
        }
    }

    /** The samples of a run its status says was archived; {@code inCluster} says why they were not read there. */
    public SamplesRead samples(BenchmarkRunStatus status, SamplesRead inCluster) {
        Optional<String> keys = Optional.ofNullable(status.archive)
                .flatMap(archived -> archive.location().keyOf(archived.url));
        if (keys.isEmpty()) {
            return inCluster;
        }
        String source = status.archive.url + RunArchive.SAMPLES;
        try {
            return archive.read(keys.get(), RunArchive.SAMPLES, RunArchive.MAX_SAMPLES_BYTES)
                    .map(gzip -> SampleStore.verified(gzip, status.samplesSha256, source))
                    .orElseGet(() -> SamplesRead.missing(inCluster.problem() + ", nor does " + source));
        } catch (ArchiveException e) {
            return SamplesRead.missing(inCluster.problem() + ", and the archive could not be read: " + e.getMessage());
        }
    }

    private static Optional<BenchmarkRun> parse(RunArchive.Archived archived, String namespace, String name) {
        try {
            BenchmarkRun run =
                    Serialization.unmarshal(new String(archived.run(), StandardCharsets.UTF_8), BenchmarkRun.class);
            if (run.getMetadata() == null
                    || !name.equals(run.getMetadata().getName())
                    || !namespace.equals(run.getMetadata().getNamespace())
                    || run.getStatus() == null) {
                LOG.warnf("%s%s is not the record of run %s/%s", archived.url(), RunArchive.RUN, namespace, name);
                return Optional.empty();
            }
            ArchiveStatus from = new ArchiveStatus();
            from.url = archived.url();
            run.getStatus().archive = from;
            return Optional.of(run);
        } catch (RuntimeException e) {
            LOG.warnf("%s%s cannot be read as a BenchmarkRun: %s", archived.url(), RunArchive.RUN, e.getMessage());
            return Optional.empty();
        }
    }
}
