package dev.llmops.serving.demo.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A request's path and decoded query parameters, which the mock server hands over as one undecoded string. */
record ApiRequestLine(String path, Map<String, String> query) {

    static ApiRequestLine parse(String pathAndQuery) {
        int questionMark = pathAndQuery.indexOf('?');
        if (questionMark < 0) {
            return new ApiRequestLine(pathAndQuery, Map.of());
        }
        Map<String, String> query = new LinkedHashMap<>();
        for (String parameter : pathAndQuery.substring(questionMark + 1).split("&")) {
            if (parameter.isEmpty()) {
                continue;
            }
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            String value = equals < 0 ? "" : parameter.substring(equals + 1);
            query.put(decode(name), decode(value));
        }
        return new ApiRequestLine(pathAndQuery.substring(0, questionMark), query);
    }

    Optional<String> parameter(String name) {
        return Optional.ofNullable(query.get(name));
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
