package dev.llmops.serving;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Keeps the runner and the simulator plain Java, so the benchmark runs anywhere and tests start them in-process. */
@AnalyzeClasses(
        packages = {"dev.llmops.serving.runner", "dev.llmops.serving.simulator"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] PLATFORM_PACKAGES = {
        "io.fabric8..",
        "io.javaoperatorsdk..",
        "io.quarkus..",
        "io.quarkiverse..",
        "jakarta.inject..",
        "jakarta.enterprise..",
        "io.vertx..",
        "org.eclipse.microprofile.."
    };

    @ArchTest
    static final ArchRule runnerUsesNoKubernetesOrQuarkusTypes = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.runner..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PLATFORM_PACKAGES)
            .because("the benchmark runner must run anywhere, in a Job or on a laptop");

    @ArchTest
    static final ArchRule simulatorUsesNoKubernetesOrQuarkusTypes = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.simulator..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PLATFORM_PACKAGES)
            .because("tests and the demo start the simulator as a plain object");

    @ArchTest
    static final ArchRule runnerKeepsToItself = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.runner..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.llmops.serving.api..",
                    "dev.llmops.serving.cli..",
                    "dev.llmops.serving.simulator..",
                    "dev.llmops.serving.status..",
                    "dev.llmops.serving.config..")
            .because("the runner has its own configuration; the controllers and commands call into it, not back");

    @ArchTest
    static final ArchRule simulatorKeepsToItself = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.simulator..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.llmops.serving.api..", "dev.llmops.serving.cli..", "dev.llmops.serving.runner..")
            .because("the simulator stands in for an SGLang server and knows nothing of its clients");
}
