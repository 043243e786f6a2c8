package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmops.serving.operator.modelserver.LeaderWorkerSet;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded API serves the version and discovery documents kubectl maps resource names with. */
class EmbeddedKubernetesDiscoveryTest {

    /** What kubectl asks /api and /apis for first: aggregated discovery, then the legacy documents. */
    private static final String KUBECTL_DISCOVERY_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;"
            + "as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
            + "application/json";

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
    void versionIsAVersionInfo() {
        assertThat(kubernetes.client().getKubernetesVersion().getMajor()).isEqualTo("1");
        assertThat(kubernetes.client().getKubernetesVersion().getGitVersion()).startsWith("v1.");
    }

    @Test
    void aggregatedDiscoveryRequestsGetTheLegacyDocumentsAsPlainJson() {
        HttpResponse<String> apis = api.get("/apis", KUBECTL_DISCOVERY_ACCEPT);

        assertThat(apis.statusCode()).isEqualTo(200);
        assertThat(apis.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(api.json("/api", KUBECTL_DISCOVERY_ACCEPT).path("kind").asText())
                .isEqualTo("APIVersions");
        assertThat(api.json("/api").path("versions"))
                .extracting(JsonNode::asText)
                .containsExactly("v1");
    }

    @Test
    void coreResourcesIncludeThePodLogSubresource() {
        JsonNode core = api.json("/api/v1");

        assertThat(core.path("kind").asText()).isEqualTo("APIResourceList");
        assertThat(names(core.path("resources")))
                .contains(
                        "namespaces",
                        "pods",
                        "pods/log",
                        "pods/status",
                        "services",
                        "configmaps",
                        "secrets",
                        "events",
                        "persistentvolumeclaims");
        assertThat(resource(core, "pods/log").path("verbs"))
                .extracting(JsonNode::asText)
                .containsExactly("get");
        assertThat(resource(core, "pods").path("shortNames"))
                .extracting(JsonNode::asText)
                .containsExactly("po");
    }

    @Test
    void groupListHasTheBuiltInGroupsAndTheCrdGroup() {
        JsonNode groups = api.json("/apis").path("groups");

        assertThat(names(groups))
                .contains(
                        "apps",
                        "batch",
                        "coordination.k8s.io",
                        "apiextensions.k8s.io",
                        "authorization.k8s.io",
                        "serving.llmops.dev");
        JsonNode serving = api.json("/apis/serving.llmops.dev");
        assertThat(serving.path("preferredVersion").path("groupVersion").asText())
                .isEqualTo("serving.llmops.dev/v1alpha1");
    }

    @Test
    void crdResourcesComeFromTheInstalledCrds() {
        JsonNode list = api.json("/apis/serving.llmops.dev/v1alpha1");

        assertThat(names(list.path("resources")))
                .containsExactlyInAnyOrder(
                        "modelservers",
                        "modelservers/status",
                        "benchmarkruns",
                        "benchmarkruns/status",
                        "servingexperiments",
                        "servingexperiments/status");
        JsonNode modelServers = resource(list, "modelservers");
        assertThat(modelServers.path("kind").asText()).isEqualTo("ModelServer");
        assertThat(modelServers.path("singularName").asText()).isEqualTo("modelserver");
        assertThat(modelServers.path("namespaced").asBoolean()).isTrue();
        assertThat(modelServers.path("shortNames")).extracting(JsonNode::asText).containsExactly("ms");
        assertThat(modelServers.path("categories")).extracting(JsonNode::asText).containsExactly("llmops");
        assertThat(modelServers.path("verbs")).extracting(JsonNode::asText).contains("get", "list", "watch", "patch");
        assertThat(resource(list, "benchmarkruns").path("shortNames"))
                .extracting(JsonNode::asText)
                .containsExactly("br");
        assertThat(resource(list, "servingexperiments").path("shortNames"))
                .extracting(JsonNode::asText)
                .containsExactly("sx");
    }

    @Test
    void theOperatorsClientFindsTheCrdsAndMissesWhatIsNotInstalled() {
        assertThat(kubernetes.client().supports("serving.llmops.dev/v1alpha1", "ModelServer"))
                .isTrue();
        assertThat(kubernetes.client().supports(LeaderWorkerSet.API_VERSION, LeaderWorkerSet.KIND))
                .isFalse();
    }

    @Test
    void unknownGroupVersionIsNotFound() {
        HttpResponse<String> response = api.get("/apis/example.dev/v1", "application/json");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("\"kind\":\"Status\"", "\"reason\":\"NotFound\"");
    }

    private static JsonNode resource(JsonNode list, String name) {
        for (JsonNode resource : list.path("resources")) {
            if (resource.path("name").asText().equals(name)) {
                return resource;
            }
        }
        throw new AssertionError("no resource " + name + " in " + list);
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(element -> names.add(element.path("name").asText()));
        return names;
    }
}
