package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.UncheckedIOException;

/** Responses with the content type and, for failures, the v1 Status body that clients of kube-apiserver expect. */
final class ApiResponses {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "Content-Type";

    private ApiResponses() {}

    static MockResponse json(int code, JsonNode body) {
        try {
            return new MockResponse()
                    .setResponseCode(code)
                    .setHeader(CONTENT_TYPE, "application/json")
                    .setBody(JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MockResponse text(byte[] body) {
        return new MockResponse()
                .setResponseCode(200)
                .setHeader(CONTENT_TYPE, "text/plain")
                .setBody(body);
    }

    /** A Failure Status; reason is the CamelCase StatusReason (NotFound, BadRequest, ...). */
    static MockResponse status(int code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure")
                .put("message", message)
                .put("reason", reason)
                .put("code", code);
        return json(code, status);
    }
}
