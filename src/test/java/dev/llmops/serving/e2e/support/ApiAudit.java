package dev.llmops.serving.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The local API server's audit log of calls made by service accounts: the refusals it records cannot hide in a log
 * level, so a chart that lacks a rule the operator uses fails the suite even when the operator logs the 403 at DEBUG.
 */
public final class ApiAudit {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORBIDDEN = 403;
    private static final List<String> WRITES = List.of("create", "update", "patch");

    /** One entry per finished call of a service account; nothing for the control plane's own components. */
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: ["RequestReceived", "ResponseStarted"]
            rules:
              - level: Metadata
                userGroups: ["system:serviceaccounts"]
              - level: None
            """;

    private final Path log;

    ApiAudit(Path log) {
        this.log = log;
    }

    static Path logPath(Path workDirectory) {
        return workDirectory.resolve("audit.log");
    }

    /** Writes the audit policy and removes the log of an earlier run, whose refusals are not this run's. */
    static Path writePolicy(Path workDirectory) {
        try {
            Files.createDirectories(workDirectory);
            Files.deleteIfExists(logPath(workDirectory));
            return Files.writeString(workDirectory.resolve("audit-policy.yaml"), POLICY, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every call of the service account the API server refused with 403, as {@code verb resource[/sub] in ns}. */
    public List<String> forbidden(String namespace, String serviceAccount) {
        return calls(
                        namespace,
                        serviceAccount,
                        event -> event.path("responseStatus").path("code").asInt() == FORBIDDEN)
                .stream()
                .distinct()
                .toList();
    }

    /** The create, update and patch calls of the service account on {@code resource} in {@code objectNamespace}. */
    public List<String> writes(String namespace, String serviceAccount, String resource, String objectNamespace) {
        return calls(namespace, serviceAccount, event -> {
            JsonNode object = event.path("objectRef");
            return WRITES.contains(event.path("verb").asText())
                    && resource.equals(object.path("resource").asText())
                    && !object.hasNonNull("subresource")
                    && objectNamespace.equals(object.path("namespace").asText());
        });
    }

    /** The service account's calls that {@code matching} accepts, in the log's order, described. */
    private List<String> calls(String namespace, String serviceAccount, Predicate<JsonNode> matching) {
        String user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
        if (!Files.exists(log)) {
            return List.of();
        }
        try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8);
                Stream<String> lines = reader.lines()) {
            return lines.map(ApiAudit::parse)
                    .filter(event ->
                            user.equals(event.path("user").path("username").asText()))
                    .filter(matching)
                    .map(ApiAudit::describe)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not an audit event: " + line, e);
        }
    }

    private static String describe(JsonNode event) {
        JsonNode object = event.path("objectRef");
        String resource = object.path("resource").asText()
                + (object.hasNonNull("subresource")
                        ? "/" + object.path("subresource").asText()
                        : "");
        String namespace = object.path("namespace").asText();
        return event.path("verb").asText() + " " + resource + (namespace.isEmpty() ? "" : " in " + namespace);
    }
}
