package dev.llmops.serving.report;

/** Escapes text for HTML and SVG, where user-controlled names, prompts and messages end up. */
final class Html {

    private Html() {}

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Outside text as HTML: cut short when too long to read, then escaped. */
    static String text(String text) {
        return escape(Format.bounded(text));
    }
}
