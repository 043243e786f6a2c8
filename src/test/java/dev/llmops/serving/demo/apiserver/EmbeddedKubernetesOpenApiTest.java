package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The OpenAPI v3 documents kubectl explain, create and apply read, built from the installed CRDs. */
class EmbeddedKubernetesOpenApiTest {

    private static final String MODEL_SERVER_SCHEMA = "dev.llmops.serving.v1alpha1.ModelServer";

    private static EmbeddedKubernetes kubernetes;
    private static RawApi api;

    @BeforeAll
    static void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        api = new RawApi(kubernetes);
    }

    @AfterAll
    static void stop() {
        kubernetes.close();
    }

    @Test
    void indexPointsToEachGroupVersionDocument() {
        JsonNode paths = api.json("/openapi/v3").path("paths");

        assertThat(paths.path("apis/serving.llmops.dev/v1alpha1")
                        .path("serverRelativeURL")
                        .asText())
                .startsWith("/openapi/v3/apis/serving.llmops.dev/v1alpha1?hash=");
        assertThat(paths.has("api/v1")).isTrue();
        assertThat(paths.has("apis/apps/v1")).isTrue();
    }

    @Test
    void schemaIsTheCrdsWithTheGroupVersionKindAndItsDescriptions() {
        String url = api.json("/openapi/v3")
                .path("paths")
                .path("apis/serving.llmops.dev/v1alpha1")
                .path("serverRelativeURL")
                .asText();
        JsonNode schema = api.json(url).path("components").path("schemas").path(MODEL_SERVER_SCHEMA);

        assertThat(schema.path("x-kubernetes-group-version-kind")
                        .get(0)
                        .path("kind")
                        .asText())
                .isEqualTo("ModelServer");
        assertThat(schema.path("properties").fieldNames())
                .toIterable()
                .contains("apiVersion", "kind", "metadata", "spec", "status");
        assertThat(schema.path("properties")
                        .path("spec")
                        .path("properties")
                        .path("accelerator")
                        .path("description")
                        .asText())
                .startsWith("Which GPUs each replica needs");
    }

    @Test
    void resourcePathsNameTheKindAndAcceptFieldValidation() {
        JsonNode paths =
                api.json("/openapi/v3/apis/serving.llmops.dev/v1alpha1").path("paths");

        JsonNode list = paths.path("/apis/serving.llmops.dev/v1alpha1/namespaces/{namespace}/benchmarkruns");
        assertThat(list.path("get")
                        .path("x-kubernetes-group-version-kind")
                        .path("kind")
                        .asText())
                .isEqualTo("BenchmarkRun");
        JsonNode patch = paths.path("/apis/serving.llmops.dev/v1alpha1/namespaces/{namespace}/benchmarkruns/{name}")
                .path("patch");
        assertThat(patch.path("parameters").get(0).path("name").asText()).isEqualTo("fieldValidation");
        assertThat(api.json("/openapi/v3/api/v1").path("paths").has("/api/v1/namespaces/{namespace}/pods/{name}"))
                .isTrue();
    }

    @Test
    void openApiV2AndUnknownGroupVersionsAreNotFound() {
        assertThat(api.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
                        .statusCode())
                .isEqualTo(404);
        assertThat(api.get("/openapi/v3/apis/example.dev/v1", "application/json")
                        .statusCode())
                .isEqualTo(404);
    }
}
