package dev.llmops.serving.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** kubectl's table output (one table per kind) as rows of header to cell; columns are at least two spaces apart. */
final class KubectlTable {

    private KubectlTable() {}

    static List<Map<String, String>> parse(String output) {
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> header = List.of();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            List<String> cells = Arrays.asList(line.trim().split(" {2,}"));
            if (cells.get(0).equals("NAME")) {
                header = cells;
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), i < cells.size() ? cells.get(i) : "");
            }
            rows.add(row);
        }
        return rows;
    }
}
