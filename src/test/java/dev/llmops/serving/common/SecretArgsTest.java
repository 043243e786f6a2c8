package dev.llmops.serving.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecretArgsTest {

    @Test
    void valuesOfSecretFlagsAreReplacedInBothForms() {
        assertThat(SecretArgs.redact(List.of(
                        "--api-key",
                        "sk-1",
                        "--hf-token=hf_2",
                        "--admin-api-key",
                        "adm",
                        "--ssl-key-password",
                        "pw",
                        "--db_secret=s3",
                        "--tp-size",
                        "8")))
                .containsExactly(
                        "--api-key",
                        "<redacted>",
                        "--hf-token=<redacted>",
                        "--admin-api-key",
                        "<redacted>",
                        "--ssl-key-password",
                        "<redacted>",
                        "--db_secret=<redacted>",
                        "--tp-size",
                        "8");
    }

    @Test
    void tokenCountsAndTokenizersAreNotSecrets() {
        List<String> args = List.of(
                "--max-total-tokens",
                "65536",
                "--tokenizer-path",
                "moonshotai/Kimi-K2.5",
                "--speculative-num-draft-tokens",
                "4",
                "--kv-cache-dtype",
                "fp8_e4m3",
                "--skip-tokenizer-init");
        assertThat(SecretArgs.redact(args)).isEqualTo(args);
    }

    @Test
    void aSecretFlagWithoutAValueLeavesTheNextFlagAlone() {
        assertThat(SecretArgs.redact(List.of("--api-key", "--tp-size", "8", "--hf-token")))
                .containsExactly("--api-key", "--tp-size", "8", "--hf-token");
    }
}
