package dev.llmops.serving.operator.crd;

import dev.llmops.serving.api.v1alpha1.ApiGroup;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What the CRD generator's output needs before it ships: printer columns in the order the resource class declares them
 * (the generator sorts them by JSON path, which would make kubectl print AGE first and the figures users look for in
 * an arbitrary order), Kubernetes' required fields in the embedded types ({@link EmbeddedRequiredFields}), and numbers
 * written so that every YAML reader takes them for numbers ({@link PortableNumbers}).
 */
public class GeneratedCrdFixes implements CRDPostProcessor {

    @Override
    public HasMetadata process(HasMetadata crd, String crdSpecVersion) {
        if (crd instanceof CustomResourceDefinition definition
                && ApiGroup.GROUP.equals(definition.getSpec().getGroup())) {
            List<String> declared =
                    declaredColumnNames(definition.getSpec().getNames().getKind());
            definition.getSpec().getVersions().forEach(version -> {
                if (version.getAdditionalPrinterColumns() != null) {
                    version.getAdditionalPrinterColumns()
                            .sort(Comparator.comparingInt(
                                    (CustomResourceColumnDefinition c) -> declared.indexOf(c.getName())));
                }
                EmbeddedRequiredFields.addTo(version.getSchema().getOpenAPIV3Schema());
            });
            return PortableNumbers.copyOf(definition);
        }
        return crd;
    }

    /** Each kind's resource class lives in the API's sub-package named after the kind, in lower case. */
    private static List<String> declaredColumnNames(String kind) {
        String className = ApiGroup.class.getPackageName() + "." + kind.toLowerCase(Locale.ROOT) + "." + kind;
        try {
            Class<?> resource = Class.forName(className, false, GeneratedCrdFixes.class.getClassLoader());
            return Arrays.stream(resource.getAnnotationsByType(AdditionalPrinterColumn.class))
                    .map(AdditionalPrinterColumn::name)
                    .toList();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("No resource class for kind " + kind, e);
        }
    }
}
