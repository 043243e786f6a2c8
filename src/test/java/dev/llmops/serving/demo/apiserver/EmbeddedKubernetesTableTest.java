package dev.llmops.serving.demo.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.demo.ExampleResourcesWithStatus;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** kubectl get receives the Table kube-apiserver builds from a CRD's printer columns or a built-in kind's printer. */
class EmbeddedKubernetesTableTest {

    /** The Accept header of kubectl get. */
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,"
            + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    private static final String NAMESPACE = "tables";
    private static final String RUNS = "/apis/serving.llmops.dev/v1alpha1/namespaces/" + NAMESPACE + "/benchmarkruns";

    private static EmbeddedKubernetes kubernetes;
    private static RawApi api;

    @BeforeAll
    static void start() {
        kubernetes = EmbeddedKubernetes.start(0);
        api = new RawApi(kubernetes);
        ExampleResourcesWithStatus.create(kubernetes.client(), NAMESPACE);
    }

    @AfterAll
    static void stop() {
        kubernetes.close();
    }

    @Test
    void columnsAreNameThenThePrinterColumnsWithTheirPriorities() {
        JsonNode table = api.json(RUNS, TABLE);

        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(table.path("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
        assertThat(texts(table.path("columnDefinitions"), "name"))
                .containsExactly(
                        "Name",
                        "Target",
                        "Phase",
                        "Progress",
                        "Single tok/s",
                        "Peak tok/s",
                        "At Conc",
                        "Capacity",
                        "Speedup",
                        "Quality",
                        "Reason",
                        "Age");
        assertThat(texts(table.path("columnDefinitions"), "priority"))
                .containsExactly("0", "0", "0", "0", "0", "0", "0", "0", "1", "1", "1", "0");
        assertThat(table.path("columnDefinitions").get(0).path("format").asText())
                .isEqualTo("name");
    }

    @Test
    void cellsAreTheTypedValuesAtTheColumnsJsonPaths() {
        JsonNode cells = api.json(RUNS, TABLE).path("rows").get(0).path("cells");

        assertThat(cells.get(0).asText()).isEqualTo(ExampleResourcesWithStatus.RUN);
        assertThat(cells.get(1).asText()).isEqualTo("kimi-k2-eagle3");
        assertThat(cells.get(2).asText()).isEqualTo("Succeeded");
        assertThat(cells.get(3).asText()).isEqualTo("7/7");
        assertThat(cells.get(4).doubleValue()).isEqualTo(182.4);
        assertThat(cells.get(5).doubleValue()).isEqualTo(2140.5);
        assertThat(cells.get(6).isIntegralNumber()).isTrue();
        assertThat(cells.get(6).asInt()).isEqualTo(48);
        assertThat(cells.get(7).asText()).isEqualTo("24 streams");
        assertThat(cells.get(8).asText()).isEqualTo("1.62x [1.50, 1.75] at c48");
        assertThat(cells.get(9).asText())
                .as("the QualitySuspect condition's reason")
                .isEqualTo("OutputsAgree");
        assertThat(cells.get(10).asText()).as("the Ready condition's reason").isEqualTo("Succeeded");
        assertThat(cells.get(11).asText()).matches("\\d+s");
    }

    @Test
    void aColumnWithoutValueIsNull() {
        BenchmarkRun unstarted =
                kubernetes.client().getKubernetesSerialization().unmarshal("""
                apiVersion: serving.llmops.dev/v1alpha1
                kind: BenchmarkRun
                metadata:
                  name: unstarted
                spec:
                  target:
                    modelServer: qwen3-8b
                """, BenchmarkRun.class);
        kubernetes.client().resource(unstarted).inNamespace(NAMESPACE).create();

        JsonNode cells =
                api.json(RUNS + "/unstarted", TABLE).path("rows").get(0).path("cells");

        assertThat(cells.get(0).asText()).isEqualTo("unstarted");
        assertThat(cells.get(2).isNull()).isTrue();
        assertThat(cells.get(4).isNull()).isTrue();
    }

    @Test
    void rowsCarryPartialObjectMetadataUnlessTheRequestAsksOtherwise() {
        JsonNode partial = api.json(RUNS, TABLE).path("rows").get(0).path("object");
        JsonNode full = api.json(RUNS + "?includeObject=Object", TABLE)
                .path("rows")
                .get(0)
                .path("object");
        JsonNode none =
                api.json(RUNS + "?includeObject=None", TABLE).path("rows").get(0);

        assertThat(partial.path("kind").asText()).isEqualTo("PartialObjectMetadata");
        assertThat(partial.path("metadata").path("name").asText()).isEqualTo(ExampleResourcesWithStatus.RUN);
        assertThat(full.path("kind").asText()).isEqualTo("BenchmarkRun");
        assertThat(full.path("status").path("phase").asText()).isEqualTo("Succeeded");
        assertThat(none.has("object")).isFalse();
    }

    @Test
    void modelServerTableHasTheWideColumnsToo() {
        JsonNode table = api.json(
                "/apis/serving.llmops.dev/v1alpha1/namespaces/" + NAMESPACE + "/modelservers/"
                        + ExampleResourcesWithStatus.SERVER,
                TABLE);

        assertThat(texts(table.path("columnDefinitions"), "name"))
                .containsExactly("Name", "Model", "GPUs", "Phase", "Ready", "Reason", "Endpoint", "Age");
        assertThat(texts(table.path("rows").get(0).path("cells"), null))
                .startsWith(
                        "qwen3-8b",
                        "Qwen/Qwen3-8B",
                        "1",
                        "Degraded",
                        "1/2",
                        "InsufficientGPUs",
                        "http://qwen3-8b." + NAMESPACE + ".svc:30000");
    }

    @Test
    void withoutTheTableMediaTypeTheListIsTheKindsTypedList() {
        JsonNode list = api.json(RUNS);

        assertThat(list.path("kind").asText()).isEqualTo("BenchmarkRunList");
        assertThat(list.path("apiVersion").asText()).isEqualTo("serving.llmops.dev/v1alpha1");
        assertThat(list.path("items").get(0).path("metadata").path("name").asText())
                .isEqualTo(ExampleResourcesWithStatus.RUN);
    }

    @Test
    void podsPrintReadyStatusRestartsAndAgeAsKubectlShowsThem() {
        kubernetes
                .client()
                .pods()
                .inNamespace(NAMESPACE)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("sglang-0")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-node-0")
                        .addNewContainer()
                        .withName("sglang")
                        .withImage("lmsysorg/sglang")
                        .endContainer()
                        .addNewContainer()
                        .withName("metrics")
                        .withImage("exporter")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .withPodIP("127.0.0.7")
                        .addNewContainerStatus()
                        .withName("sglang")
                        .withReady(true)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning()
                        .endRunning()
                        .endState()
                        .endContainerStatus()
                        .addNewContainerStatus()
                        .withName("metrics")
                        .withReady(false)
                        .withRestartCount(2)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("CrashLoopBackOff")
                        .endWaiting()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build())
                .create();

        JsonNode table = api.json("/api/v1/namespaces/" + NAMESPACE + "/pods/sglang-0", TABLE);

        assertThat(texts(table.path("columnDefinitions"), "name"))
                .containsExactly(
                        "Name",
                        "Ready",
                        "Status",
                        "Restarts",
                        "Age",
                        "IP",
                        "Node",
                        "Nominated Node",
                        "Readiness Gates");
        assertThat(texts(table.path("rows").get(0).path("cells"), null))
                .containsExactly(
                        "sglang-0",
                        "1/2",
                        "CrashLoopBackOff",
                        "2",
                        cellAge(table),
                        "127.0.0.7",
                        "gpu-node-0",
                        "<none>",
                        "<none>");
    }

    @Test
    void eventsPrintLastSeenTypeReasonObjectAndMessage() {
        kubernetes
                .client()
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName("qwen3-8b.1")
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind("ModelServer")
                        .withName("qwen3-8b")
                        .endInvolvedObject()
                        .withType("Warning")
                        .withReason("InsufficientGPUs")
                        .withMessage("No node has 1 free GPU ")
                        .withCount(3)
                        .withFirstTimestamp("2026-01-01T00:00:00Z")
                        .withLastTimestamp("2026-01-01T00:00:00Z")
                        .withNewSource()
                        .withComponent("llm-serving-operator")
                        .endSource()
                        .build())
                .create();

        JsonNode table = api.json("/api/v1/namespaces/" + NAMESPACE + "/events", TABLE);

        assertThat(table.path("columnDefinitions"))
                .filteredOn(column -> column.path("priority").asInt() == 0)
                .extracting(column -> column.path("name").asText())
                .containsExactly("Last Seen", "Type", "Reason", "Object", "Message");
        JsonNode cells = table.path("rows").get(0).path("cells");
        assertThat(cells.get(0).asText()).matches("\\d+d");
        assertThat(texts(cells, null).subList(1, 9))
                .containsExactly(
                        "Warning",
                        "InsufficientGPUs",
                        "modelserver/qwen3-8b",
                        "",
                        "llm-serving-operator",
                        "No node has 1 free GPU",
                        cells.get(0).asText(),
                        "3");
    }

    @Test
    void nodesPrintStatusRolesAgeAndVersion() {
        kubernetes
                .client()
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("gpu-node-0")
                        .addToLabels("node-role.kubernetes.io/gpu", "")
                        .endMetadata()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .withNewNodeInfo()
                        .withKubeletVersion("v1.36.0")
                        .endNodeInfo()
                        .endStatus()
                        .build())
                .create();

        JsonNode table = api.json("/api/v1/nodes", TABLE);

        assertThat(table.path("columnDefinitions"))
                .filteredOn(column -> column.path("priority").asInt() == 0)
                .extracting(column -> column.path("name").asText())
                .containsExactly("Name", "Status", "Roles", "Age", "Version");
        assertThat(texts(table.path("rows").get(0).path("cells"), null).subList(0, 5))
                .containsExactly(
                        "gpu-node-0",
                        "Ready",
                        "gpu",
                        table.path("rows").get(0).path("cells").get(3).asText(),
                        "v1.36.0");
    }

    @Test
    void builtInKindsAnswerWithTheirPlainList() {
        JsonNode namespaces = api.json("/api/v1/namespaces", TABLE);

        assertThat(namespaces.path("kind").asText()).isNotEqualTo("Table");
        assertThat(texts(namespaces.path("items"), null)).isNotEmpty();
    }

    private static String cellAge(JsonNode table) {
        return table.path("rows").get(0).path("cells").get(4).asText();
    }

    /** The field of each element of an array, or with a null field each element itself, as text. */
    private static List<String> texts(JsonNode array, String field) {
        List<String> texts = new ArrayList<>();
        array.forEach(element ->
                texts.add(field == null ? element.asText() : element.path(field).asText()));
        return texts;
    }
}
