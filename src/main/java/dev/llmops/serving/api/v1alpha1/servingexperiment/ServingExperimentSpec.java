package dev.llmops.serving.api.v1alpha1.servingexperiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.llmops.serving.api.contract.BenchmarkDefaults;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkPlanSpec;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServerSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import lombok.EqualsAndHashCode;

/**
 * The experiment: the server every variant starts from, the variants, the benchmark they all get and what makes one
 * the winner. Immutable once created but for the budget and keepWinner, so the results describe the spec they ran.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!has(self.baseline) || self.variants.exists(v, v.name == self.baseline)",
        message = "spec.baseline must name one of spec.variants",
        reason = "FieldValueInvalid",
        fieldPath = ".baseline")
@ValidationRule(
        value = "self.server.replicas >= 1",
        message = "spec.server.replicas must be at least 1: a variant with no replica is never ready to benchmark",
        reason = "FieldValueInvalid",
        fieldPath = ".server.replicas")
@ValidationRule(
        value = "!has(self.objective) || self.objective.type != 'Capacity' || (has(self.benchmark) && "
                + "has(self.benchmark.slo))",
        message = "spec.objective.type Capacity needs spec.benchmark.slo, the limits the capacity is measured under",
        reason = "FieldValueRequired",
        fieldPath = ".objective.type")
@ValidationRule(
        value = "!has(self.objective) || !has(self.objective.stage) || (self.objective.stage == 'single' ? "
                + ServingExperimentSpec.SINGLE_PHASE_RUNS + " : self.objective.stage.startsWith('c') ? "
                + ServingExperimentSpec.LEVELS + ".exists(c, c == int(self.objective.stage.substring(1))) : "
                + ServingExperimentSpec.RATES + ".exists(r, r == double(self.objective.stage.substring(1))))",
        message = "spec.objective.stage must name a stage spec.benchmark runs: single (with single-request prompts), "
                + "c<N> for one of its concurrency levels or r<R> for one of its rates",
        reason = "FieldValueInvalid",
        fieldPath = ".objective.stage")
@ValidationRule(
        value = "self.variants.all(v, !has(v.parallelism) || v.parallelism.tp * (v.parallelism.enableDpAttention ? 1 "
                + ": v.parallelism.dp) <= " + ServingExperimentSpec.GPUS + ")",
        message = "spec.variants[*].parallelism: tp × dp (dp counts only without DP attention) needs more GPUs than "
                + "spec.server.accelerator.gpusPerReplica provides",
        reason = "FieldValueInvalid",
        fieldPath = ".variants")
@ValidationRule(
        value = "self.variants.all(v, !has(v.parallelism) || " + ServingExperimentSpec.GPUS
                + " % v.parallelism.nodes == 0)",
        message = "spec.variants[*].parallelism.nodes must divide spec.server.accelerator.gpusPerReplica (each node "
                + "of a replica gets the same number of GPUs)",
        reason = "FieldValueInvalid",
        fieldPath = ".variants")
@ValidationRule(
        value = "self.variants.all(v, !(has(v.speculativeDecoding) ? v.speculativeDecoding.algorithm == 'DFLASH' : "
                + "(has(self.server.speculativeDecoding) && self.server.speculativeDecoding.algorithm == 'DFLASH'))"
                + " || (has(v.parallelism) ? (!v.parallelism.enableDpAttention && v.parallelism.dp == 1) : "
                + "(!has(self.server.parallelism) || (!self.server.parallelism.enableDpAttention && "
                + "self.server.parallelism.dp == 1))))",
        message = "spec.variants[*]: speculative decoding DFLASH does not support data parallelism: the variant's "
                + "parallelism (or spec.server's) needs dp 1 and enableDpAttention false",
        reason = "FieldValueForbidden",
        fieldPath = ".variants")
@ValidationRule(
        value = "self.server == oldSelf.server",
        message = "spec.server is immutable: create a new ServingExperiment to try another server",
        reason = "FieldValueForbidden",
        fieldPath = ".server")
@ValidationRule(
        value = "self.variants == oldSelf.variants",
        message = "spec.variants is immutable: create a new ServingExperiment to try other variants",
        reason = "FieldValueForbidden",
        fieldPath = ".variants")
@ValidationRule(
        value = "has(self.baseline) == has(oldSelf.baseline) && (!has(self.baseline) || self.baseline == "
                + "oldSelf.baseline)",
        message = "spec.baseline is immutable: every variant was compared with it",
        reason = "FieldValueForbidden",
        fieldPath = ".baseline")
@ValidationRule(
        value = "has(self.benchmark) == has(oldSelf.benchmark) && (!has(self.benchmark) || self.benchmark == "
                + "oldSelf.benchmark)",
        message = "spec.benchmark is immutable: every variant must get the same benchmark",
        reason = "FieldValueForbidden",
        fieldPath = ".benchmark")
@ValidationRule(
        value = "has(self.objective) == has(oldSelf.objective) && (!has(self.objective) || self.objective == "
                + "oldSelf.objective)",
        message = "spec.objective is immutable: create a new ServingExperiment to judge by another objective",
        reason = "FieldValueForbidden",
        fieldPath = ".objective")
@ValidationRule(
        value = "self.parallelVariants == oldSelf.parallelVariants",
        message = "spec.parallelVariants is immutable: create a new ServingExperiment to share the pool otherwise",
        reason = "FieldValueForbidden",
        fieldPath = ".parallelVariants")
@EqualsAndHashCode
public class ServingExperimentSpec {

    /** The most variants an experiment compares. */
    public static final int MAX_VARIANTS = 16;

    /** CEL: the GPUs of one replica of spec.server, which every variant gets. */
    static final String GPUS = "(has(self.server.accelerator) ? self.server.accelerator.gpusPerReplica : 1)";

    /** CEL: the benchmark's single-request phase runs (it has prompts, or the default ones). */
    static final String SINGLE_PHASE_RUNS = "(!has(self.benchmark) || !has(self.benchmark.singleRequest) || "
            + "!has(self.benchmark.singleRequest.prompts) || size(self.benchmark.singleRequest.prompts) > 0)";

    /** CEL: the benchmark's closed-loop levels: the given ones, else the defaults unless it sweeps rates. */
    static final String LEVELS = "(has(self.benchmark) && has(self.benchmark.sweep) && "
            + "has(self.benchmark.sweep.concurrency) ? self.benchmark.sweep.concurrency : (has(self.benchmark) && "
            + "has(self.benchmark.sweep) && has(self.benchmark.sweep.rates) ? [] : "
            + BenchmarkDefaults.CONCURRENCY_JSON + "))";

    /** CEL: the benchmark's open-loop rates. */
    static final String RATES = "(has(self.benchmark) && has(self.benchmark.sweep) && has(self.benchmark.sweep.rates)"
            + " ? self.benchmark.sweep.rates : [])";

    @Required
    @JsonPropertyDescription("The ModelServer spec every variant starts from: what the variants share (model, GPUs, "
            + "model cache, secrets, readiness). Each variant's ModelServer is this spec with the variant's fields "
            + "laid over it, and uses the same model cache, so the weights are downloaded once.")
    public ModelServerSpec server;

    @Required
    @Size(min = 1, max = MAX_VARIANTS)
    @ValidationRule(
            value = "self.all(v, self.exists_one(w, w.name == v.name))",
            message = "spec.variants: names must be unique",
            reason = "FieldValueInvalid")
    @JsonPropertyDescription("The variants, tried in this order; each names the ModelServer fields it changes. A "
            + "variant with a name only serves spec.server as it is.")
    public List<VariantSpec> variants = new ArrayList<>();

    @Size(max = 63)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    @JsonPropertyDescription("The variant every other is compared with (the BenchmarkRun baseline of their runs). "
            + "Defaults to the first variant.")
    public String baseline;

    @JsonPropertyDescription("The benchmark every variant gets, exactly alike (a BenchmarkRun spec without its target, "
            + "baseline and reference, which the experiment sets): the same seeded requests, so the runs pair request "
            + "by request.")
    public BenchmarkPlanSpec benchmark = new BenchmarkPlanSpec();

    @JsonPropertyDescription(
            "What makes a variant the winner. Absent: Throughput at the sweep's highest concurrency " + "level.")
    public ObjectiveSpec objective = new ObjectiveSpec();

    @Default("1")
    @Min(1)
    @Max(MAX_VARIANTS)
    @JsonPropertyDescription("How many variants' ModelServers the pool holds at once. With 1, a variant's ModelServer "
            + "is created only once the previous variant's serving pods are gone, so its GPUs are free.")
    public Integer parallelVariants = 1;

    @Default("false")
    @JsonPropertyDescription("Leave the winning variant's ModelServer serving when the experiment ends "
            + "(status.winner.modelServer names it); the others are always removed. May change while it runs.")
    public Boolean keepWinner = false;

    @Min(1)
    @Max(43200)
    @JsonPropertyDescription("Minutes the experiment may take; when they run out it stops the variant in progress, "
            + "marks the rest Skipped and ends Incomplete with what it measured. May change while it runs.")
    public Integer maxDurationMinutes;
}
