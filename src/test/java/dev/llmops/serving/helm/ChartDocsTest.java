package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the chart and its guide tell a user must be true: the examples NOTES.txt names, the defaults the guide lists.
 */
class ChartDocsTest {

    private static final Pattern EXAMPLE = Pattern.compile("-f\\s+([\\w.-]+\\.yaml)");

    @Test
    void theNotesApplyExistingExamplesThatServeAModelAndBenchmarkIt() throws IOException {
        String notes = Files.readString(Path.of("helm/llm-serving-operator/templates/NOTES.txt"));
        Matcher matcher = EXAMPLE.matcher(notes);
        List<String> examples = matcher.results().map(m -> m.group(1)).toList();

        assertThat(examples).isNotEmpty();
        StringBuilder applied = new StringBuilder();
        for (String example : examples) {
            Path file = Path.of("deploy/examples", example);
            assertThat(file).as("example named in NOTES.txt").exists();
            applied.append(Files.readString(file));
        }
        assertThat(applied.toString()).contains("kind: ModelServer").contains("kind: BenchmarkRun");
        assertThat(notes).contains("benchmarkruns");
    }

    @Test
    void theOperationsGuideStatesTheChartsDefaultResources() throws IOException {
        ResourceRequirements resources =
                RenderedChart.render(Map.of()).operatorContainer().getResources();
        String row = "| `resources` | %s CPU, %s requested; %s limit |"
                .formatted(
                        resources.getRequests().get("cpu"),
                        resources.getRequests().get("memory"),
                        resources.getLimits().get("memory"));

        assertThat(Files.readString(Path.of("docs/operations.md"))).contains(row);
    }

    @Test
    void theOperationsGuideStatesTheChartsDefaultJvmOptions() throws IOException {
        String jvmOptions = HelmChartTest.env(RenderedChart.render(Map.of()).operatorContainer())
                .get("JDK_JAVA_OPTIONS");

        assertThat(Files.readString(Path.of("docs/operations.md"))).contains("| `jvmOptions` | `" + jvmOptions + "` |");
    }
}
