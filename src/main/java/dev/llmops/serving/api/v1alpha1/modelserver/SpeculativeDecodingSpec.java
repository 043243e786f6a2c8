package dev.llmops.serving.api.v1alpha1.modelserver;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.EqualsAndHashCode;

/** Speculative decoding settings, passed to SGLang as --speculative-* flags. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(self.algorithm in ['EAGLE', 'EAGLE3', 'STANDALONE', 'DFLASH']) || has(self.draftModelPath)",
        message = "spec.speculativeDecoding.draftModelPath is required for EAGLE, EAGLE3, STANDALONE and DFLASH",
        reason = "FieldValueRequired",
        fieldPath = ".draftModelPath")
@ValidationRule(
        value = "self.algorithm == 'DFLASH' || (!has(self.dflashBlockSize) && !has(self.dflashDraftWindowSize))",
        message = "spec.speculativeDecoding.dflashBlockSize and dflashDraftWindowSize apply only to algorithm DFLASH",
        reason = "FieldValueForbidden",
        fieldPath = ".dflashBlockSize")
@ValidationRule(
        value = "!has(self.eagleTopK) || !has(self.numSteps) || !has(self.numDraftTokens) || self.eagleTopK > 1"
                + " || self.numDraftTokens <= self.numSteps + 1",
        message = "spec.speculativeDecoding.numDraftTokens can be at most numSteps + 1 when eagleTopK is 1",
        reason = "FieldValueInvalid",
        fieldPath = ".numDraftTokens")
@EqualsAndHashCode
public class SpeculativeDecodingSpec {

    @Required
    @Size(min = 1, max = 32)
    @Pattern("^[A-Z0-9_]+$")
    @JsonPropertyDescription(
            "--speculative-algorithm: EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM, DFLASH, or another upper-case name "
                    + "passed through as is.")
    public String algorithm;

    @Size(max = 512)
    @JsonPropertyDescription(
            "--speculative-draft-model-path: draft model id or path; required for EAGLE, EAGLE3, STANDALONE and "
                    + "DFLASH.")
    public String draftModelPath;

    @Min(1)
    @Max(64)
    @JsonPropertyDescription("--speculative-num-steps.")
    public Integer numSteps;

    @Min(1)
    @Max(64)
    @JsonPropertyDescription("--speculative-eagle-topk.")
    public Integer eagleTopK;

    @Min(1)
    @Max(256)
    @JsonPropertyDescription("--speculative-num-draft-tokens.")
    public Integer numDraftTokens;

    @Min(1)
    @Max(256)
    @JsonPropertyDescription("--speculative-dflash-block-size (DFLASH only).")
    public Integer dflashBlockSize;

    @Min(1)
    @Max(65536)
    @JsonPropertyDescription("--speculative-dflash-draft-window-size (DFLASH only).")
    public Integer dflashDraftWindowSize;
}
