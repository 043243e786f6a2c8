package dev.llmops.serving;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Holds the top-level packages apart as strictly as separate modules would: what each deployable part may import is
 * written here once, and docs/architecture.md explains why.
 */
@AnalyzeClasses(packages = "dev.llmops.serving", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String PROJECT = "dev.llmops.serving..";

    private static final String[] KUBERNETES_AND_QUARKUS = {
        "io.fabric8..",
        "io.javaoperatorsdk..",
        "io.quarkus..",
        "io.quarkiverse..",
        "jakarta.inject..",
        "jakarta.enterprise..",
        "io.vertx..",
        "org.eclipse.microprofile.."
    };

    private static final String[] KUBERNETES_CLIENT_AND_QUARKUS = {
        "io.fabric8.kubernetes.client..",
        "io.fabric8.mockwebserver..",
        "io.javaoperatorsdk..",
        "io.quarkus..",
        "io.quarkiverse..",
        "jakarta.inject..",
        "jakarta.enterprise..",
        "io.vertx..",
        "org.eclipse.microprofile.."
    };

    @ArchTest
    static final ArchRule apiImportsNothingOfTheProject = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.api..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT).and(not(resideInAPackage("dev.llmops.serving.api.."))))
            .because("the API is what every other part agrees on, so it depends on none of them");

    @ArchTest
    static final ArchRule runnerUsesNoKubernetesOrQuarkusTypes = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.runner..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(KUBERNETES_AND_QUARKUS)
            .because("the benchmark runner must run anywhere, in a Job or on a laptop");

    @ArchTest
    static final ArchRule runnerImportsOnlyTheContractAndOptionHelpers = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.runner..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.runner..",
                            "dev.llmops.serving.api.contract..",
                            "dev.llmops.serving.common.options.."))))
            .because("the runner has its own configuration; the operator and the commands call into it, not back");

    @ArchTest
    static final ArchRule simulatorStandsAlone = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.simulator..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT).and(not(resideInAPackage("dev.llmops.serving.simulator.."))))
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage(KUBERNETES_AND_QUARKUS)
            .because("the simulator stands in for an SGLang server and knows nothing of its clients");

    @ArchTest
    static final ArchRule reportReadsResourcesButTalksToNoCluster = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.report..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(KUBERNETES_CLIENT_AND_QUARKUS)
            .orShould()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.report..",
                            "dev.llmops.serving.llmd..",
                            "dev.llmops.serving.api..",
                            "dev.llmops.serving.common.."))))
            .because("a report renders a saved BenchmarkRun anywhere, from its status alone");

    @ArchTest
    static final ArchRule llmdReportsKnowOnlyTheApi = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.llmd..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.llmd..", "dev.llmops.serving.api..", "dev.llmops.serving.common.."))))
            .because("the operator and report write the same llm-d report of a run");

    @ArchTest
    static final ArchRule archiveTalksToNoClusterAndKnowsNothingOfTheProject = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.archive..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(KUBERNETES_CLIENT_AND_QUARKUS)
            .orShould()
            .dependOnClassesThat(resideInAPackage(PROJECT).and(not(resideInAPackage("dev.llmops.serving.archive.."))))
            .because("the operator and report history read and write the same records, in bytes, anywhere");

    @ArchTest
    static final ArchRule comparisonTalksToNoClusterAndKnowsOnlyTheApiAndTheStatistics = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.comparison..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(KUBERNETES_CLIENT_AND_QUARKUS)
            .orShould()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.comparison..",
                            "dev.llmops.serving.api..",
                            "dev.llmops.serving.runner.statistics.."))))
            .because("the operator compares runs in a cluster and report compare two bench results without one, with"
                    + " the same code");

    @ArchTest
    static final ArchRule commonHelpersDependOnlyOnTheApi = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.common..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage("dev.llmops.serving.common..", "dev.llmops.serving.api.."))))
            .because("shared helpers sit below everything that shares them");

    @ArchTest
    static final ArchRule compatibilityTableDependsOnlyOnTheApi = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.operator.compatibility..")
            .should()
            .dependOnClassesThat(resideInAPackage(PROJECT)
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.operator.compatibility..", "dev.llmops.serving.api.."))))
            .because("the ModelServer controller and the validate command share the check, so it knows neither");

    @ArchTest
    static final ArchRule operatorImportsOnlyTheRunnersPublicParts = noClasses()
            .that()
            .resideInAPackage("dev.llmops.serving.operator..")
            .should()
            .dependOnClassesThat(resideInAPackage("dev.llmops.serving.runner..")
                    .and(not(resideInAnyPackage(
                            "dev.llmops.serving.runner.transport..",
                            "dev.llmops.serving.runner.statistics..",
                            "dev.llmops.serving.runner.shard.."))))
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.llmops.serving.cli..",
                    "dev.llmops.serving.demo..",
                    "dev.llmops.serving.report..",
                    "dev.llmops.serving.simulator..")
            .because("the operator meets the runner through the contract in the API; it shares only the HTTP client"
                    + " that probes a server and the paired statistics");

    @ArchTest
    static final ArchRule onlyTheDemosApiServerUsesTheMockServer = noClasses()
            .that()
            .resideOutsideOfPackage("dev.llmops.serving.demo.apiserver..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.fabric8.mockwebserver..", "io.fabric8.kubernetes.client.server.mock..")
            .because("the mock API server is the demo's embedded cluster and nothing else's");

    @ArchTest
    static final ArchRule topLevelPackagesHaveNoCycles = slices().matching("dev.llmops.serving.(*)..")
            .should()
            .beFreeOfCycles()
            .because("each top-level package is a deployable part that could be its own module");
}
