package dev.llmops.serving.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Text from a run (stage names, condition messages, warnings, run names) reaches a pull request's Markdown as written:
 * it adds no table cell or row, no tag, link, image, emphasis or code, whatever it contains.
 */
class MarkdownEscapingTest {

    private static final String HOSTILE = "a | b | c\n| x | y |\n# heading\n"
            + "<img src=x onerror=alert(1)> ![pixel](http://tracker.example/p.png) [click](javascript:alert(1)) "
            + "`code` *em* _em_ ~~struck~~ &lt;b&gt; back\\slash";

    private static final String SHOWN = "a | b | c | x | y | # heading "
            + "<img src=x onerror=alert(1)> ![pixel](http://tracker.example/p.png) [click](javascript:alert(1)) "
            + "`code` *em* _em_ ~~struck~~ &lt;b&gt; back\\slash";

    @Test
    void userTextIsShownAsWrittenAndAddsNoMarkup() throws IOException {
        BenchmarkRun run = new RunLoader().load(Files.readString(ReportTest.BASELINE), "baseline");
        run.getMetadata().setName("run`with``ticks");
        run.getStatus().stages.get(0).name = HOSTILE;
        run.getStatus().warnings = List.of(HOSTILE);
        run.getStatus().conditions = List.of(new ConditionBuilder()
                .withType("Stalled")
                .withStatus("True")
                .withReason("Hostile")
                .withMessage(HOSTILE)
                .build());

        Document html = asGitHubRendersIt(MarkdownReport.render(run, Optional.empty()));

        assertThat(html.select("img, a, script, em, del, h1")).isEmpty();
        assertThat(html.select("h3 code").text()).isEqualTo("run`with``ticks");
        assertThat(html.select("h4 code").eachText()).contains("run`with``ticks");
        var stagesTable = html.select("table").first();
        int columns = stagesTable.select("thead th").size();
        assertThat(stagesTable.select("tbody tr"))
                .hasSize(run.getStatus().stages.size())
                .allSatisfy(row -> assertThat(row.select("td")).hasSize(columns));
        assertThat(stagesTable.select("tbody tr td").eachText()).contains(SHOWN);
        assertThat(html.select("li").eachText())
                .contains("⚠ " + SHOWN)
                .anySatisfy(item -> assertThat(item).endsWith(": " + SHOWN));
    }

    private static Document asGitHubRendersIt(String markdown) {
        var extensions = List.of(TablesExtension.create(), StrikethroughExtension.create());
        Parser parser = Parser.builder().extensions(extensions).build();
        HtmlRenderer renderer = HtmlRenderer.builder().extensions(extensions).build();
        return Jsoup.parse(renderer.render(parser.parse(markdown)));
    }
}
