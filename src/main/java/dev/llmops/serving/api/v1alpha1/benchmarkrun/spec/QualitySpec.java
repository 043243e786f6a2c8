package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.contract.RunnerFlags;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.EqualsAndHashCode;

/**
 * The quality stage: each single-request prompt sent once greedily, so the outputs of two runs can be compared and a
 * speculative decoder that changes what the model says is caught.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@EqualsAndHashCode
public class QualitySpec {

    public static final int DEFAULT_MAX_TOKENS = BenchmarkDefaults.QUALITY_MAX_TOKENS;
    public static final double DEFAULT_MIN_AGREEMENT = 0.5;

    @Default("" + DEFAULT_MAX_TOKENS)
    @Min(1)
    @Max(RunnerFlags.MAX_QUALITY_MAX_TOKENS)
    @JsonPropertyDescription("max_tokens of each greedy (temperature 0) quality request.")
    public Integer maxTokens = DEFAULT_MAX_TOKENS;

    @Default("" + DEFAULT_MIN_AGREEMENT)
    @Min(value = 0, inclusive = false)
    @Max(1)
    @JsonPropertyDescription("Lowest acceptable prefix agreement with the baseline's or the reference's greedy outputs "
            + "(mean shared-prefix tokens over the longer output, per prompt), in (0, 1]; below it the run gets "
            + "QualitySuspect=True.")
    public Double minAgreement = DEFAULT_MIN_AGREEMENT;

    @Default("false")
    @JsonPropertyDescription("Report the run as Degraded to Argo CD when it is QualitySuspect, so a sync gated on its "
            + "health stops before a speedup bought with wrong answers is rolled out.")
    public Boolean degradeOnSuspect = false;
}
