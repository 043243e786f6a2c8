package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.llmops.serving.api.v1alpha1.ApiGroup;
import dev.llmops.serving.api.v1alpha1.Labels;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** An SGLang server deployment on GPU nodes that is Ready only once it really generates tokens. */
@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@ShortNames("ms")
@Categories(ApiGroup.CATEGORY)
@ValidationRule(
        value = "size(self.metadata.name) <= 63",
        message = "metadata.name may have at most 63 characters: it is the value of the " + Labels.MODEL_SERVER
                + " label on the server's pods",
        reason = "FieldValueInvalid")
@AdditionalPrinterColumn(name = "Model", jsonPath = ".spec.model.path", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "GPUs",
        jsonPath = ".spec.accelerator.gpusPerReplica",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Ready",
        jsonPath = ".status.readyReplicasText",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Reason",
        jsonPath = ".status.diagnosis.reason",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Endpoint",
        jsonPath = ".status.endpoint",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class ModelServer extends CustomResource<ModelServerSpec, ModelServerStatus> implements Namespaced {

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
