package dev.llmops.serving.api.v1alpha1.benchmarkrun;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.llmops.serving.api.v1alpha1.ApiGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** One benchmark of an inference server: warm-up, single-request phase and concurrency sweep, results in status. */
@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@ShortNames("br")
@Categories(ApiGroup.CATEGORY)
@ValidationRule(
        value = "!has(self.spec) || !has(self.spec.baseline) || self.spec.baseline != self.metadata.name",
        message = "spec.baseline names this run itself: name the run to compare against",
        reason = "FieldValueInvalid",
        fieldPath = ".spec.baseline")
@ValidationRule(
        value = "!has(self.spec) || !has(self.spec.reference)" + " || self.spec.reference.name != self.metadata.name",
        message = "spec.reference.name names this run itself: name an earlier run of the same plan",
        reason = "FieldValueInvalid",
        fieldPath = ".spec.reference.name")
@AdditionalPrinterColumn(name = "Target", jsonPath = ".status.target", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Progress", jsonPath = ".status.progress", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Single tok/s",
        jsonPath = ".status.summary.singleStreamTokensPerSecond",
        type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
        name = "Peak tok/s",
        jsonPath = ".status.summary.peakTokensPerSecond",
        type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
        name = "At Conc",
        jsonPath = ".status.summary.peakConcurrency",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Capacity",
        jsonPath = ".status.capacity.load",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Speedup",
        jsonPath = ".status.comparison.speedup",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Quality",
        jsonPath = ".status.conditions[?(@.type==\"QualitySuspect\")].reason",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Reason",
        jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class BenchmarkRun extends CustomResource<BenchmarkRunSpec, BenchmarkRunStatus> implements Namespaced {

    /**
     * Without {@code managedFields}: nothing reads them from this kind, and every cached copy would hold their field
     * maps. Updates that omit them leave them unchanged on the API server.
     */
    @Override
    @JsonIgnoreProperties("managedFields")
    public ObjectMeta getMetadata() {
        return super.getMetadata();
    }
}
