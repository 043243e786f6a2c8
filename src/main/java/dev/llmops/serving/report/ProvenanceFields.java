package dev.llmops.serving.report;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.Provenance;
import dev.llmops.serving.common.SecretArgs;
import java.util.List;
import java.util.Optional;

/** What a run measured (model, image, GPUs, server command line) as labelled text, the same in HTML and Markdown. */
final class ProvenanceFields {

    /** One labelled value, a dash when the run did not record it. */
    record Field(String label, String value) {}

    private ProvenanceFields() {}

    static List<Field> of(BenchmarkRun run) {
        Provenance p = Optional.ofNullable(run.getStatus().provenance).orElseGet(Provenance::new);
        return List.of(
                new Field("Model", Format.orMissing(p.model)),
                new Field("Image", Format.orMissing(p.image)),
                new Field("GPU", Format.orMissing(p.gpuProduct)),
                new Field("GPUs", Format.integer(p.gpuCount)),
                new Field("Driver", Format.orMissing(p.driverVersion)),
                new Field("Runner", Format.orMissing(p.runnerVersion)),
                new Field("Server arguments", Format.orMissing(String.join(" ", SecretArgs.redact(p.serverArgs)))));
    }
}
