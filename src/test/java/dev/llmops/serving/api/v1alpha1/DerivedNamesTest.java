package dev.llmops.serving.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DerivedNamesTest {

    private static final String DNS_1035 = "[a-z]([-a-z0-9]*[a-z0-9])?";

    @Test
    void aNameThatFitsIsKeptSoExistingObjectsAreNeverRenamed() {
        String sixtyThree = "q".repeat(63);
        assertThat(DerivedNames.dns1035Label("qwen3-8b", "ms-", 63)).isEqualTo("qwen3-8b");
        assertThat(DerivedNames.dns1035Label(sixtyThree, "ms-", 63)).isEqualTo(sixtyThree);
        assertThat(DerivedNames.fit("kimi-eagle3", "-bench", 63)).isEqualTo("kimi-eagle3-bench");
    }

    @Test
    void dotsAndLeadingDigitsBecomeADns1035LabelUniqueToTheName() {
        String dotted = DerivedNames.dns1035Label("qwen3.8b", "ms-", 63);
        String digit = DerivedNames.dns1035Label("8b-chat", "ms-", 63);

        assertThat(dotted).matches(DNS_1035).startsWith("qwen3-8b-").hasSize("qwen3-8b-".length() + 8);
        assertThat(dotted).isNotEqualTo(DerivedNames.dns1035Label("qwen3-8b", "ms-", 63));
        assertThat(DerivedNames.dns1035Label("qwen3.8b", "ms-", 63)).isEqualTo(dotted);
        assertThat(digit).matches(DNS_1035).startsWith("ms-8b-chat-");
    }

    @Test
    void aLongNameIsCutToTheLimitWithAHashOfTheFullName() {
        String long1 = "a".repeat(50) + ".b-" + "c".repeat(30);
        String long2 = "a".repeat(50) + ".b-" + "d".repeat(30);

        String label = DerivedNames.dns1035Label(long1, "ms-", 40);

        assertThat(label).matches(DNS_1035).hasSizeLessThanOrEqualTo(40);
        assertThat(DerivedNames.dns1035Label(long2, "ms-", 40)).isNotEqualTo(label);
        assertThat(DerivedNames.fit("r".repeat(250), "-samples", 253))
                .hasSize(253)
                .endsWith("-samples");
    }
}
