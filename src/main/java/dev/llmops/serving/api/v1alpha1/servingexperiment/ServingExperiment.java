package dev.llmops.serving.api.v1alpha1.servingexperiment;

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

/**
 * Serving variants of one model deployed one after another on one GPU pool, each benchmarked with the same workload
 * and compared with the baseline variant, until one is named the winner with a confidence interval.
 */
@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@ShortNames("sx")
@Categories(ApiGroup.CATEGORY)
@ValidationRule(
        value = "!has(self.spec) || self.spec.variants.all(v, size(self.metadata.name) + 1 + size(v.name) <= "
                + ServingExperiment.CHILD_NAME_MAX + ")",
        message = "spec.variants[*].name: metadata.name, a dash and a variant's name make the name of the variant's "
                + "ModelServer and BenchmarkRun, which may have at most " + ServingExperiment.CHILD_NAME_MAX
                + " characters (a label value): shorten the experiment's or the variant's name",
        reason = "FieldValueInvalid",
        fieldPath = ".spec.variants")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Progress", jsonPath = ".status.progress", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Winner", jsonPath = ".status.winner.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Speedup", jsonPath = ".status.speedup", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class ServingExperiment extends CustomResource<ServingExperimentSpec, ServingExperimentStatus>
        implements Namespaced {

    /**
     * The most characters of a variant's ModelServer and BenchmarkRun name, {@code <experiment>-<variant>}: a
     * ModelServer's name is a label value on its pods.
     */
    public static final int CHILD_NAME_MAX = 63;

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
