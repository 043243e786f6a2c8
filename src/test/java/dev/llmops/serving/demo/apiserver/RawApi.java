package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP GETs against the embedded API, for documents no typed client reads the way kubectl does. */
final class RawApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String url;

    RawApi(EmbeddedKubernetes kubernetes) {
        this.url = kubernetes.url();
    }

    HttpResponse<String> get(String path, String accept) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + path))
                .header("Accept", accept)
                .GET()
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The JSON body of a GET that must answer 200. */
    JsonNode json(String path, String accept) {
        HttpResponse<String> response = get(path, accept);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode json(String path) {
        return json(path, "application/json");
    }
}
