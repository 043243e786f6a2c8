package dev.llmops.serving.packaging;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project's Dockerfile read as instructions per stage, so that tests can hold it to what the chart and the
 * Jib-built image promise without a Docker engine to build it.
 */
final class Dockerfile {

    static final Path PATH = Path.of("Dockerfile");
    private static final Pattern KEY_VALUE = Pattern.compile("([\\w.\\-]+)=(\"[^\"]*\"|\\S+)");

    /** One instruction with its continuation lines joined. */
    record Instruction(String keyword, String arguments) {}

    private final List<List<Instruction>> stages;

    private Dockerfile(List<List<Instruction>> stages) {
        this.stages = stages;
    }

    static Dockerfile read() throws IOException {
        List<List<Instruction>> stages = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : Files.readAllLines(PATH)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            String joined = (pending + trimmed).strip();
            pending.setLength(0);
            String[] parts = joined.split("\\s+", 2);
            Instruction instruction = new Instruction(parts[0].toUpperCase(), parts.length > 1 ? parts[1] : "");
            if (instruction.keyword().equals("FROM")) {
                stages.add(new ArrayList<>());
            }
            if (stages.isEmpty()) {
                throw new IllegalStateException("instruction before the first FROM: " + joined);
            }
            stages.get(stages.size() - 1).add(instruction);
        }
        return new Dockerfile(stages);
    }

    List<List<Instruction>> stages() {
        return stages;
    }

    List<Instruction> runtimeStage() {
        return stages.get(stages.size() - 1);
    }

    /** The runtime stage's only instruction with this keyword; fails when there is none or more than one. */
    Instruction single(String keyword) {
        List<Instruction> found =
                runtimeStage().stream().filter(i -> i.keyword().equals(keyword)).toList();
        if (found.size() != 1) {
            throw new IllegalStateException("expected one " + keyword + " in the runtime stage, found " + found);
        }
        return found.get(0);
    }

    List<String> entryPoint() {
        try {
            return new ObjectMapper().readValue(single("ENTRYPOINT").arguments(), new TypeReference<>() {});
        } catch (IOException e) {
            throw new UncheckedIOException("ENTRYPOINT is not in exec form", e);
        }
    }

    /** The runtime stage's ENV and LABEL pairs ({@code KEY=value} form), in order. */
    Map<String, String> pairs(String keyword) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (Instruction instruction : runtimeStage()) {
            if (instruction.keyword().equals(keyword)) {
                Matcher pair = KEY_VALUE.matcher(instruction.arguments());
                while (pair.find()) {
                    pairs.put(pair.group(1), pair.group(2).replaceAll("^\"|\"$", ""));
                }
            }
        }
        return pairs;
    }
}
