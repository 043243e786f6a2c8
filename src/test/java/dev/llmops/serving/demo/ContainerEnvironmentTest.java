package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Variable references in a container's arguments expand as the kubelet expands them. */
class ContainerEnvironmentTest {

    @Test
    void definedReferencesExpandEscapedAndUnknownOnesStay() {
        Map<String, String> env = Map.of("LLMOPS_SERVER_API_KEY", "sk-1", "PORT", "30000");

        assertThat(ContainerEnvironment.expand(
                        List.of("--api-key", "$(LLMOPS_SERVER_API_KEY)", "$$(PORT)", "$(UNSET)", "a$(PORT)b$"), env))
                .containsExactly("--api-key", "sk-1", "$(PORT)", "$(UNSET)", "a30000b$");
    }
}
