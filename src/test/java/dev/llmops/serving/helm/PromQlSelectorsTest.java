package dev.llmops.serving.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The extractor reads PromQL as Prometheus does: names in every position, nothing that only looks like one. */
class PromQlSelectorsTest {

    @Test
    void findsEveryMetricAndNothingElse() throws Exception {
        String quantile = "histogram_quantile(0.99, sum by (le, model_name) "
                + "(rate(sglang:time_to_first_token_seconds_bucket{model_name=~\"$m\", job!=\"rate\"}[5m])))";
        String joined = "sum without (instance) (rate(requests_total[5m] offset 1h)) / on (job) group_left (version) "
                + "max by (job) (build_info) > bool 0.5";
        String nameMatcher = "{__name__=\"up\", job=\"sum\"} unless absent(other_metric)";
        String subquery = "max_over_time(deriv(queue_size[10m])[1h:5m]) and count(label_replace(a, \"x\", \"$1\", "
                + "\"y\", \"(.*)\"))";
        String regexName = "{__name__=~\"sglang:.*\"}";
        String broken = "sum(rate(x[5m])";

        Map<String, PromQlSelectors.Parsed> parsed =
                PromQlSelectors.parse(List.of(quantile, joined, nameMatcher, subquery, regexName, broken));

        assertThat(parsed.get(quantile).metrics()).containsExactly("sglang:time_to_first_token_seconds_bucket");
        assertThat(parsed.get(joined).metrics()).containsExactly("build_info", "requests_total");
        assertThat(parsed.get(nameMatcher).metrics()).containsExactly("other_metric", "up");
        assertThat(parsed.get(subquery).metrics()).containsExactly("a", "queue_size");
        assertThat(parsed.get(regexName).error()).contains("not by equality");
        assertThat(parsed.get(broken).error()).contains("parse error");
    }
}
