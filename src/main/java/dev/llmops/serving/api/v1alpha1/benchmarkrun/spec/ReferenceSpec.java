package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.EqualsAndHashCode;

/**
 * An earlier run of the same plan (before an image or argument upgrade, say) that this run must not fall behind: the
 * run gets a Regressed or Improved condition when a stage's throughput moves beyond the noise band.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class ReferenceSpec {

    public static final int DEFAULT_TOLERANCE_PERCENT = 5;

    @Required
    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
    @JsonPropertyDescription("Name of the reference BenchmarkRun in this namespace.")
    public String name;

    @Default("" + DEFAULT_TOLERANCE_PERCENT)
    @Min(0)
    @Max(100)
    @JsonPropertyDescription("Smallest change of a stage's throughput, in percent, that counts as a regression or an "
            + "improvement, on top of the 95 % confidence interval excluding no change.")
    public Integer tolerancePercent = DEFAULT_TOLERANCE_PERCENT;

    @Default("false")
    @JsonPropertyDescription(
            "Report the run as Degraded to Argo CD when it regressed, so a sync gated on its health stops.")
    public Boolean degradeOnRegression = false;
}
