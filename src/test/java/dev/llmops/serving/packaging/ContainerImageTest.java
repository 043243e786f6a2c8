package dev.llmops.serving.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.helm.RenderedChart;
import dev.llmops.serving.packaging.Dockerfile.Instruction;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfile cannot be built here, so its promises are checked by reading it: a JDK build stage and a JRE 17
 * runtime stage, a numeric non-root user, the Quarkus launcher as entry point with no default subcommand, and the
 * same user and writable directory the Helm chart's pod expects.
 */
class ContainerImageTest {

    @Test
    void buildsWithAJdkAndRunsOnAJre17() throws IOException {
        List<List<Instruction>> stages = Dockerfile.read().stages();

        assertThat(stages).hasSizeGreaterThanOrEqualTo(2);
        Instruction buildFrom = stages.get(0).get(0);
        assertThat(buildFrom.arguments()).contains("eclipse-temurin-17").contains(" AS build");
        assertThat(stages.get(0))
                .anySatisfy(i -> assertThat(i.keyword() + " " + i.arguments())
                        .startsWith("RUN")
                        .contains("mvn")
                        .contains("package"));
        List<Instruction> runtime = stages.get(stages.size() - 1);
        assertThat(runtime.get(0).arguments()).matches("eclipse-temurin:17-jre(\\S*)?");
        assertThat(runtime)
                .filteredOn(i -> i.keyword().equals("COPY"))
                .allSatisfy(i -> assertThat(i.arguments()).startsWith("--from=build /build/target/quarkus-app/"));
    }

    @Test
    void runsAsANumericNonRootUserTheChartAgreesWith() throws IOException {
        String user = Dockerfile.read().single("USER").arguments();

        assertThat(user).matches("\\d+(:\\d+)?");
        long uid = Long.parseLong(user.split(":")[0]);
        assertThat(uid).isPositive();
        PodSpec pod = RenderedChart.render(Map.of())
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(uid);
    }

    @Test
    void entryPointIsTheQuarkusLauncherWithoutASubcommand() throws IOException {
        Dockerfile dockerfile = Dockerfile.read();
        List<String> entryPoint = dockerfile.entryPoint();

        assertThat(entryPoint.get(0)).isEqualTo("java");
        assertThat(entryPoint.subList(entryPoint.size() - 2, entryPoint.size()))
                .containsExactly("-jar", "/app/quarkus-run.jar");
        assertThat(dockerfile.runtimeStage())
                .noneSatisfy(i -> assertThat(i.keyword()).isEqualTo("CMD"));
        String tmpdir = entryPoint.stream()
                .filter(a -> a.startsWith("-Djava.io.tmpdir="))
                .findFirst()
                .orElseThrow()
                .split("=", 2)[1];
        PodSpec pod = RenderedChart.render(Map.of())
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .as("the chart mounts a writable volume at java.io.tmpdir under its read-only root filesystem")
                .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo(tmpdir));
    }

    @Test
    void buildContextHoldsTheSourcesTheBuildCopies() throws IOException {
        List<String> ignore = Files.readAllLines(Path.of(".dockerignore")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .toList();

        assertThat(ignore).containsExactly("*", "!pom.xml", "!src/main/", "!deploy/crds/");
        assertThat(Dockerfile.read().stages().get(0))
                .filteredOn(i -> i.keyword().equals("COPY"))
                .extracting(Instruction::arguments)
                .containsExactly("pom.xml ./", "src/main ./src/main", "deploy/crds ./deploy/crds");
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher resourceDirectories =
                Pattern.compile("<directory>([^<]+)</directory>").matcher(pom);
        while (resourceDirectories.find()) {
            String directory = resourceDirectories.group(1);
            assertThat(List.of("src/main/", "deploy/crds/"))
                    .as("build resource " + directory + " is in the image's build context")
                    .anySatisfy(included -> assertThat(directory + "/").startsWith(included));
        }
    }
}
