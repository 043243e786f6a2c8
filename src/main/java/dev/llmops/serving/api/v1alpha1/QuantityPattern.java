package dev.llmops.serving.api.v1alpha1;

/** The Kubernetes resource quantity syntax, for schema patterns on quantity-valued string fields. */
public final class QuantityPattern {
    public static final String VALUE = "^([0-9]+(\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?$";

    private QuantityPattern() {}
}
