package dev.llmops.serving.operator.olm;

import io.quarkiverse.operatorsdk.annotations.CSVMetadata;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.InstallMode;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Provider;
import io.quarkiverse.operatorsdk.annotations.SharedCSVMetadata;

/**
 * What the OLM bundle's ClusterServiceVersion says about the operator, shared by its controllers: one bundle installs
 * them together, in the namespaces an OperatorGroup targets (the chart's default) or in all (its watchAllNamespaces).
 */
@CSVMetadata(
        bundleName = "llm-serving-operator",
        displayName = "LLM Serving Operator",
        description = "Runs SGLang LLM servers on NVIDIA Blackwell GPUs under Kubernetes (ModelServer), benchmarks"
                + " them (BenchmarkRun) and compares ways of serving a model one after another (ServingExperiment).",
        version = "0.1.0",
        keywords = {"llm", "sglang", "inference", "benchmark", "operator"},
        maturity = "alpha",
        minKubeVersion = "1.28.0",
        provider = @Provider(name = "llmops-dev", url = "https://github.com/llmops-dev/llm-serving-operator"),
        annotations =
                @CSVMetadata.Annotations(
                        containerImage = "ghcr.io/llmops-dev/llm-serving-operator:0.1.0",
                        repository = "https://github.com/llmops-dev/llm-serving-operator",
                        capabilities = "Basic Install"),
        installModes = {
            @InstallMode(type = "OwnNamespace"),
            @InstallMode(type = "SingleNamespace"),
            @InstallMode(type = "MultiNamespace"),
            @InstallMode(type = "AllNamespaces")
        })
public final class OlmBundleMetadata implements SharedCSVMetadata {

    private OlmBundleMetadata() {}
}
