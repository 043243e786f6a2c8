package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One served version of an installed CustomResourceDefinition: what discovery, OpenAPI and tables are built from. */
record ServedCrdVersion(JsonNode crd, JsonNode version) {

    String group() {
        return crd.path("spec").path("group").asText();
    }

    String versionName() {
        return version.path("name").asText();
    }

    String groupVersion() {
        return group() + "/" + versionName();
    }

    boolean storage() {
        return version.path("storage").asBoolean(false);
    }

    String plural() {
        return names().path("plural").asText();
    }

    String singular() {
        return names().path("singular").asText(kind().toLowerCase(Locale.ROOT));
    }

    String kind() {
        return names().path("kind").asText();
    }

    List<String> shortNames() {
        return texts(names().path("shortNames"));
    }

    List<String> categories() {
        return texts(names().path("categories"));
    }

    boolean namespaced() {
        return "Namespaced".equals(crd.path("spec").path("scope").asText());
    }

    boolean hasStatusSubresource() {
        return version.path("subresources").has("status");
    }

    /** The additionalPrinterColumns of this version, in their declared order. */
    List<JsonNode> printerColumns() {
        List<JsonNode> columns = new ArrayList<>();
        version.path("additionalPrinterColumns").forEach(columns::add);
        return columns;
    }

    JsonNode openApiV3Schema() {
        return version.path("schema").path("openAPIV3Schema");
    }

    private JsonNode names() {
        return crd.path("spec").path("names");
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(element -> texts.add(element.asText()));
        return texts;
    }
}
