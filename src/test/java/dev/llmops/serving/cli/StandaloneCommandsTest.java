package dev.llmops.serving.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * The tools the executable runs on picocli alone, without starting Quarkus ({@link LlmServingCommand#main}): they must
 * not need anything Quarkus provides, or they would find their injected fields null and their configuration missing.
 */
class StandaloneCommandsTest {

    private static final String[] CONTAINER_PACKAGES = {
        "jakarta.inject..",
        "jakarta.enterprise..",
        "io.quarkus..",
        "io.quarkiverse..",
        "io.javaoperatorsdk..",
        "org.eclipse.microprofile.."
    };

    private static final Map<String, Class<?>> SUBCOMMANDS = Arrays.stream(
                    LlmServingCommand.class.getAnnotation(Command.class).subcommands())
            .collect(Collectors.toMap(c -> c.getAnnotation(Command.class).name(), Function.identity()));

    @Test
    void everyStandaloneToolIsASubcommand() {
        assertThat(SUBCOMMANDS.keySet()).containsAll(LlmServingCommand.STANDALONE_COMMANDS);
    }

    @Test
    void standaloneToolsNeedNothingOfQuarkus() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.llmops.serving");
        Class<?>[] tools = LlmServingCommand.STANDALONE_COMMANDS.stream()
                .map(SUBCOMMANDS::get)
                .toArray(Class[]::new);

        noClasses()
                .that()
                .belongToAnyOf(tools)
                .should()
                .transitivelyDependOnClassesThat()
                .resideInAnyPackage(CONTAINER_PACKAGES)
                .because("LlmServingCommand.main runs these commands without starting Quarkus")
                .check(classes);
    }

    @Test
    void onlyTheToolsAndTheTopLevelHelpRunWithoutQuarkus() {
        assertThat(LlmServingCommand.standalone("--help")).isTrue();
        assertThat(LlmServingCommand.standalone("-h")).isTrue();
        assertThat(LlmServingCommand.standalone("probe", "--url", "http://127.0.0.1:30000"))
                .isTrue();
        assertThat(LlmServingCommand.standalone("bench", "--help")).isTrue();
        assertThat(LlmServingCommand.standalone("simulate")).isTrue();
        assertThat(LlmServingCommand.standalone("report", "--format", "md")).isTrue();

        assertThat(LlmServingCommand.standalone())
                .as("no arguments: the operator")
                .isFalse();
        assertThat(LlmServingCommand.standalone("operator")).isFalse();
        assertThat(LlmServingCommand.standalone("--verbose")).isFalse();
        assertThat(LlmServingCommand.standalone("demo")).isFalse();
        assertThat(LlmServingCommand.standalone("--version"))
                .as("the version comes from Quarkus's configuration")
                .isFalse();
        assertThat(LlmServingCommand.standalone("--help", "operator")).isFalse();
    }
}
