package dev.llmops.serving.report;

/**
 * An HTML table built row by row, every cell escaped and bounded. A table of figures right-aligns all but its first
 * column; a table of text stays left-aligned, fills the page width and wraps anywhere, so long messages and image names
 * never widen the page.
 */
final class HtmlTable {

    /** What a table holds, which decides its alignment, wrapping and column widths. */
    enum Kind {
        FIGURES("figures"),
        /** Figures with a verdict in the second column, which stays left-aligned. */
        VERDICTS("figures verdicts"),
        /** An experiment's variants: figures with text in some columns, which its page's style left-aligns. */
        VARIANTS("figures verdicts variants"),
        CONDITIONS("text conditions"),
        PROVENANCE("text provenance");

        final String cssClass;

        Kind(String cssClass) {
            this.cssClass = cssClass;
        }
    }

    private final StringBuilder html = new StringBuilder();

    HtmlTable(Kind kind, String... headers) {
        html.append("<div class=\"table\"><table class=\"")
                .append(kind.cssClass)
                .append("\"><thead><tr>");
        for (String header : headers) {
            html.append("<th>").append(Html.escape(header)).append("</th>");
        }
        html.append("</tr></thead><tbody>");
    }

    HtmlTable row(String... cells) {
        html.append("<tr>");
        for (String cell : cells) {
            html.append("<td>").append(Html.text(cell)).append("</td>");
        }
        html.append("</tr>");
        return this;
    }

    String html() {
        return html + "</tbody></table></div>";
    }
}
