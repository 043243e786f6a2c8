package dev.llmops.serving.api.v1alpha1.benchmarkrun.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** Where the sweep's prompts come from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self.type == 'Random' || (!has(self.inputLength) && !has(self.outputLength))",
        message = "spec.dataset.inputLength and spec.dataset.outputLength apply only when spec.dataset.type is Random",
        reason = "FieldValueForbidden",
        fieldPath = ".inputLength")
@ValidationRule(
        value = "(self.type == 'ShareGPT') == has(self.shareGpt)",
        message = "spec.dataset.shareGpt is required when spec.dataset.type is ShareGPT and allowed only then",
        reason = "FieldValueInvalid",
        fieldPath = ".shareGpt")
@ValidationRule(
        value = "(self.type == 'SharedPrefix') == has(self.sharedPrefix)",
        message = "spec.dataset.sharedPrefix is required when spec.dataset.type is SharedPrefix and allowed only then",
        reason = "FieldValueInvalid",
        fieldPath = ".sharedPrefix")
@ValidationRule(
        value = "(self.type == 'Trace') == has(self.trace)",
        message = "spec.dataset.trace is required when spec.dataset.type is Trace and allowed only then",
        reason = "FieldValueInvalid",
        fieldPath = ".trace")
@ValidationRule(
        value = "(self.type == 'Sessions') == has(self.sessions)",
        message = "spec.dataset.sessions is required when spec.dataset.type is Sessions and allowed only then",
        reason = "FieldValueInvalid",
        fieldPath = ".sessions")
@EqualsAndHashCode
public class DatasetSpec {

    @Default("Random")
    @JsonPropertyDescription("Random: a fresh random token sequence per request, so no prefix cache hides prefill; "
            + "of inputLength and outputLength when given, else drawn per request, uniform: 512 to 1536 input tokens "
            + "and 128 to 384 output tokens, at most spec.sampling.maxTokens. Prompts: the single-request prompts in "
            + "rotation (every request after the first hits a prefix cache). ShareGPT: the first user turns of a "
            + "conversation file. SharedPrefix: groups of prompts sharing a system prompt. Trace: a Mooncake-format "
            + "trace replayed at its timestamps instead of the sweep, prompt blocks with equal hash ids equal. "
            + "Sessions: each concurrent stream a user holding a multi-turn conversation, every turn carrying the "
            + "whole history; status.stages[].turns gives TTFT and the cached prompt share per turn. The sequence of "
            + "requests depends only on the seed, so runs can be compared pairwise.")
    public DatasetType type = DatasetType.Random;

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Input tokens per request (Random only); unset, each request's is drawn from 512 to 1536.")
    public Integer inputLength;

    @Min(1)
    @Max(1048576)
    @JsonPropertyDescription("Output tokens per request (Random only); replaces spec.sampling.maxTokens. Unset, each "
            + "request's is drawn from 128 to 384, at most spec.sampling.maxTokens.")
    public Integer outputLength;

    @JsonPropertyDescription("The conversation file (ShareGPT only).")
    public ShareGptSpec shareGpt;

    @JsonPropertyDescription("The shape of the shared-prefix prompts (SharedPrefix only).")
    public SharedPrefixSpec sharedPrefix;

    @JsonPropertyDescription("The trace file and how it is replayed (Trace only).")
    public TraceSpec trace;

    @JsonPropertyDescription("The conversations' shape and pace (Sessions only).")
    public SessionsSpec sessions;

    @Default("false")
    @JsonPropertyDescription(
            "Ask the server to ignore end-of-sequence so every request produces exactly its max tokens; short "
                    + "outputs are counted.")
    public Boolean ignoreEos = false;
}
