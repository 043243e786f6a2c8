package dev.llmops.serving.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The tolerant exposition reader: wanted names summed and maximised over label sets, unreadable lines skipped. */
class PrometheusTextTest {

    @Test
    void sumsAndMaximisesTheWantedSeriesAndSkipsWhatItCannotRead() {
        String text = """
                # HELP sglang:generation_tokens Number of generation tokens processed.
                # TYPE sglang:generation_tokens counter
                sglang:generation_tokens_total{model_name="m",is_streaming="true"} 100.0
                sglang:generation_tokens_total{model_name="a \\" } 5 \\\\",is_streaming="false"} 20 1712345678000
                sglang:generation_tokens_created{model_name="m"} 1.7e9
                sglang:token_usage{dp="0"} 0.25\r
                sglang:token_usage{dp="1"} 0.75
                sglang:token_usage{dp="2"} NaN
                sglang:num_running_reqs{unclosed="x} 5
                sglang:num_running_reqs 3 trailing
                sglang:num_queue_reqs 1e400x
                {"not":"prometheus"}
                   \t
                """;
        PrometheusText.Scrape scrape = PrometheusText.parse(
                text,
                Set.of(
                        SglangMetricNames.GENERATION_TOKENS,
                        SglangMetricNames.TOKEN_USAGE,
                        SglangMetricNames.RUNNING_REQUESTS,
                        SglangMetricNames.QUEUED_REQUESTS));

        assertThat(scrape.sum(SglangMetricNames.GENERATION_TOKENS)).isEqualTo(120);
        assertThat(scrape.max(SglangMetricNames.TOKEN_USAGE)).isEqualTo(0.75);
        assertThat(scrape.sum(SglangMetricNames.TOKEN_USAGE)).isEqualTo(1.0);
        assertThat(scrape.samples().get(SglangMetricNames.TOKEN_USAGE).series()).isEqualTo(2);
        assertThat(scrape.sum(SglangMetricNames.RUNNING_REQUESTS)).isEqualTo(3);
        assertThat(scrape.sum(SglangMetricNames.QUEUED_REQUESTS)).isNull();
        assertThat(scrape.samples()).doesNotContainKey("sglang:generation_tokens_created");
        assertThat(scrape.validLines()).isEqualTo(7);
        assertThat(scrape.skippedLines()).isEqualTo(3);
    }
}
