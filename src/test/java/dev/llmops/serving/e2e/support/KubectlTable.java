package dev.llmops.serving.e2e.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kubectl's table output (one table per kind, each headed by NAME, or by LAST SEEN for events) as rows of header to
 * cell. Columns are read at the header's offsets, so an empty cell or a value with a space ({@code 5 streams}) stays
 * in its column.
 */
public final class KubectlTable {

    private static final Pattern HEADER_CELL = Pattern.compile("\\S+(?: \\S+)*");

    private KubectlTable() {}

    public static List<Map<String, String>> parse(String output) {
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> header = List.of();
        List<Integer> offsets = List.of();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (header.isEmpty() || line.startsWith("NAME ") || line.startsWith("LAST SEEN ")) {
                header = new ArrayList<>();
                offsets = new ArrayList<>();
                Matcher cell = HEADER_CELL.matcher(line);
                while (cell.find()) {
                    header.add(cell.group());
                    offsets.add(cell.start());
                }
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                int from = Math.min(offsets.get(i), line.length());
                int to = i + 1 < header.size() ? Math.min(offsets.get(i + 1), line.length()) : line.length();
                row.put(header.get(i), line.substring(from, to).trim());
            }
            rows.add(row);
        }
        return rows;
    }
}
