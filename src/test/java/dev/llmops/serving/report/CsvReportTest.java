package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.cli.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CSV report has one row per stage with its load and per-request percentiles, and quotes outside text. */
class CsvReportTest {

    @Test
    void oneRowPerStageWithItsLoadThroughputErrorsAndPercentiles() {
        Cli.Run run = Cli.run("report", "--format", "csv", "--file", ReportTest.BASELINE.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<List<String>> rows = parse(run.out());
        List<String> header = rows.get(0);
        assertThat(header)
                .startsWith("run", "stage", "concurrency", "request_rate")
                .contains(
                        "failed",
                        "output_tokens_per_s",
                        "ttft_p50_ms",
                        "ttft_p90_ms",
                        "ttft_p99_ms",
                        "tpot_p50_ms",
                        "itl_p99_ms",
                        "e2e_p99_ms");
        assertThat(rows).hasSize(1 + 6);
        List<String> single = rows.get(1);
        assertThat(single.get(header.indexOf("stage"))).isEqualTo("single");
        assertThat(single.get(header.indexOf("concurrency"))).isEqualTo("1");
        assertThat(single.get(header.indexOf("request_rate"))).isEmpty();
        assertThat(single.get(header.indexOf("output_tokens_per_s"))).isEqualTo("61.2");
        assertThat(single.get(header.indexOf("ttft_p50_ms"))).isEqualTo("210.0");
        assertThat(single.get(header.indexOf("ttft_p90_ms"))).isEqualTo("336.0");
        assertThat(single.get(header.indexOf("itl_p99_ms"))).isEqualTo("33.3");
        assertThat(single.get(header.indexOf("failed"))).isEqualTo("0");
        assertThat(rows).allSatisfy(row -> assertThat(row).hasSameSizeAs(header));
        assertThat(run.out()).contains("\r\n").doesNotContain("—");
    }

    @Test
    void aRateStageHasARateAndNoConcurrency() {
        Cli.Run run = Cli.run("report", "--format", "csv", "--file", ReportTest.RATES.toString());

        List<List<String>> rows = parse(run.out());
        List<String> rate = rows.get(2);
        assertThat(rate.get(rows.get(0).indexOf("request_rate"))).isEqualTo("4.0");
        assertThat(rate.get(rows.get(0).indexOf("concurrency"))).isEmpty();
        assertThat(rate.get(rows.get(0).indexOf("tpot_p99_ms"))).isEqualTo("12.5");
        assertThat(rate.get(rows.get(0).indexOf("itl_p50_ms")))
                .as("not measured")
                .isEmpty();
    }

    @Test
    void eachStageHasThePrefixCachesShareOrEmptyCellsWithoutOne() {
        List<List<String>> sessions =
                parse(Cli.run("report", "--format", "csv", "--file", ReportTest.SESSIONS.toString())
                        .out());
        List<List<String>> rates = parse(Cli.run("report", "--format", "csv", "--file", ReportTest.RATES.toString())
                .out());

        List<String> header = sessions.get(0);
        assertThat(header).endsWith("cached_prompt_share", "cache_hit_rate");
        assertThat(sessions.subList(1, sessions.size()))
                .extracting(row -> row.get(header.indexOf("stage")) + " "
                        + row.get(header.indexOf("cached_prompt_share")) + " "
                        + row.get(header.indexOf("cache_hit_rate")))
                .containsExactly("c8 0.684 0.712", "c16 0.661 0.688");
        assertThat(rates.get(0)).isEqualTo(header);
        assertThat(rates.subList(1, rates.size()))
                .allSatisfy(row -> assertThat(row.subList(header.indexOf("cached_prompt_share"), header.size()))
                        .containsOnly(""));
    }

    @Test
    void outsideTextIsQuotedAsRfc4180SaysAndNeverAFormula() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.BASELINE), ReportTest.BASELINE.toString());
        run.getMetadata().setName("a,\"quoted\"\nname");
        run.getStatus().stages.get(0).name = "=HYPERLINK(\"x\")";

        String csv = CsvReport.render(run);

        assertThat(csv.lines().skip(1).findFirst().orElseThrow()).startsWith("\"a,\"\"quoted\"\"");
        List<List<String>> rows = parse(csv);
        assertThat(rows.get(1).get(0)).isEqualTo("a,\"quoted\"\nname");
        assertThat(rows.get(1).get(1)).isEqualTo("'=HYPERLINK(\"x\")");
        assertThat(rows).hasSize(7);
    }

    @Test
    void outsideTextStartingWithAnyCharacterASpreadsheetReadsAsAFormulaIsQuoted() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.BASELINE), ReportTest.BASELINE.toString());
        List<String> starts = List.of("=", "+", "-", "@", "\t", "\r");
        for (int i = 0; i < starts.size(); i++) {
            run.getStatus().stages.get(i).name = starts.get(i) + "HYPERLINK(\"x\")";
        }

        List<List<String>> rows = parse(CsvReport.render(run));

        for (int i = 0; i < starts.size(); i++) {
            assertThat(rows.get(i + 1).get(1)).isEqualTo("'" + starts.get(i) + "HYPERLINK(\"x\")");
        }
    }

    /** An RFC 4180 reader: commas split fields outside quotes, "" in quotes is one quote, CRLF ends a record. */
    static List<List<String>> parse(String csv) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                i++;
            } else {
                field.append(c);
            }
        }
        assertThat(field).as("the last record ends with CRLF").isEmpty();
        assertThat(quoted).as("every quoted field is closed").isFalse();
        return rows;
    }
}
