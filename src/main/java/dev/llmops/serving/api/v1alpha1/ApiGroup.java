package dev.llmops.serving.api.v1alpha1;

/** Names shared by both resources of the API group, so they are spelled once. */
public final class ApiGroup {
    public static final String GROUP = "serving.llmops.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String CATEGORY = "llmops";

    private ApiGroup() {}
}
