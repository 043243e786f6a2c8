package dev.llmops.serving.runner.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** The model ids a server's {@code GET /v1/models} lists, so a run or a probe can say when it asks for another one. */
public final class ServedModels {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int NAMED_IN_MESSAGES = 5;

    private ServedModels() {}

    /** The listed ids in order; none when the answer is not a successful OpenAI model list. */
    public static List<String> of(EndpointResponse models) {
        List<String> ids = new ArrayList<>();
        if (!models.isOk()) {
            return ids;
        }
        try {
            JsonNode data = JSON.readTree(models.body()).path("data");
            data.forEach(model -> {
                if (model.path("id").isTextual()) {
                    ids.add(model.path("id").asText());
                }
            });
        } catch (JsonProcessingException e) {
            ids.clear();
        }
        return ids;
    }

    /** The first few ids for a message, then how many more there are. */
    public static String names(List<String> ids) {
        return ids.size() <= NAMED_IN_MESSAGES
                ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, NAMED_IN_MESSAGES)) + " and " + (ids.size() - NAMED_IN_MESSAGES)
                        + " more";
    }
}
