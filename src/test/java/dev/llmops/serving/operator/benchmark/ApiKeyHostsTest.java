package dev.llmops.serving.operator.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmops.serving.api.v1alpha1.SecretKeyReference;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiKeyHostsTest {

    private final ApiKeyHosts hosts = new ApiKeyHosts(List.of("api.openai.com", " *.Inference.Example ", "10.0.0.7"));

    @Test
    void aKeyGoesOnlyToAnAllowListedHost() {
        assertThat(hosts.refusal(keyTo("https://api.openai.com/v1"))).isEmpty();
        assertThat(hosts.refusal(keyTo("https://API.OpenAI.com:443"))).isEmpty();
        assertThat(hosts.refusal(keyTo("http://gpu-7.us.inference.example:30000")))
                .isEmpty();
        assertThat(hosts.refusal(keyTo("http://10.0.0.7:30000"))).isEmpty();

        assertThat(hosts.refusal(keyTo("https://api.openai.com.attacker.example")))
                .isPresent();
        assertThat(hosts.refusal(keyTo("https://inference.example"))).isPresent();
        assertThat(hosts.refusal(keyTo("https://evilinference.example"))).isPresent();
        assertThat(hosts.refusal(keyTo("https://api.openai.com@attacker.example/")))
                .isPresent();
        assertThat(hosts.refusal(keyTo("http://10.0.0.70"))).isPresent();
    }

    @Test
    void theRefusalNamesBothFieldsAndTheSetting() {
        assertThat(hosts.refusal(keyTo("https://attacker.example/v1"))).hasValueSatisfying(refusal -> {
            assertThat(refusal.reason()).isEqualTo("SecretHostNotAllowed");
            assertThat(refusal.message())
                    .contains(
                            "spec.target.apiKeySecret (Secret creds, key token)",
                            "host attacker.example of spec.target.url",
                            "llmops.benchmark.api-key-hosts",
                            "Helm value benchmark.apiKeyHosts");
        });
        assertThat(hosts.refusal(keyTo("http://[broken")))
                .hasValueSatisfying(refusal -> assertThat(refusal.message()).contains("a URL without a host"));
    }

    @Test
    void withoutAnAllowListNoExternalHostGetsAKey() {
        ApiKeyHosts none = new ApiKeyHosts(List.of());
        assertThat(none.refusal(keyTo("https://api.openai.com"))).isPresent();

        BenchmarkTarget keyless = new BenchmarkTarget();
        keyless.url = "https://anywhere.example";
        assertThat(none.refusal(keyless)).isEmpty();
    }

    @Test
    void anEntryThatIsNotAHostIsRejectedNamingTheSetting() {
        assertThatThrownBy(() -> new ApiKeyHosts(List.of("https://api.openai.com")))
                .hasMessageContaining("llmops.benchmark.api-key-hosts")
                .hasMessageContaining("'https://api.openai.com'");
        assertThatThrownBy(() -> new ApiKeyHosts(List.of("*"))).hasMessageContaining("*.domain");
    }

    private static BenchmarkTarget keyTo(String url) {
        BenchmarkTarget target = new BenchmarkTarget();
        target.url = url;
        target.model = "m";
        target.apiKeySecret = new SecretKeyReference();
        target.apiKeySecret.name = "creds";
        target.apiKeySecret.key = "token";
        return target;
    }
}
