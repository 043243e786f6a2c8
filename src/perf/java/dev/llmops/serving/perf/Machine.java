package dev.llmops.serving.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a figure was measured on (cores, CPU model, load), printed and stored beside every result. */
record Machine(int cores, String cpu, String load) {

    static Machine current() {
        return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(), loadAverage());
    }

    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    String describe() {
        return "machine: %d cores, %s, load average %s (1/5/15 min)".formatted(cores, cpu, load);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("cores", cores);
        json.put("cpuModel", cpu);
        json.put("loadAverageAtStart", load);
        return json;
    }
}
