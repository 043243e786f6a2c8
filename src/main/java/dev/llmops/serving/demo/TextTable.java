package dev.llmops.serving.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Left-aligned columns separated by three spaces, like kubectl: the demo's tables. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(header);
    }

    void row(String... cells) {
        rows.add(cells);
    }

    void print(PrintStream out) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], Objects.toString(row[i], "").length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                String cell = Objects.toString(row[i], "");
                line.append(cell).append(i < columns - 1 ? " ".repeat(widths[i] - cell.length() + 3) : "");
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
