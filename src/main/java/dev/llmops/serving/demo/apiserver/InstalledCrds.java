package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The CRDs stored in the embedded API right now, so discovery follows installs and deletions as a real API does. */
final class InstalledCrds {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CRD_COLLECTION = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private final KubernetesCrudDispatcher store;

    InstalledCrds(KubernetesCrudDispatcher store) {
        this.store = store;
    }

    /** Every served version of every stored CRD, in storage order. */
    List<ServedCrdVersion> servedVersions() {
        List<ServedCrdVersion> served = new ArrayList<>();
        for (JsonNode crd : storedCrds()) {
            for (JsonNode version : crd.path("spec").path("versions")) {
                if (version.path("served").asBoolean(false)) {
                    served.add(new ServedCrdVersion(crd, version));
                }
            }
        }
        return served;
    }

    Optional<ServedCrdVersion> find(String group, String version, String plural) {
        return servedVersions().stream()
                .filter(served -> served.group().equals(group)
                        && served.versionName().equals(version)
                        && served.plural().equals(plural))
                .findFirst();
    }

    private JsonNode storedCrds() {
        try {
            return JSON.readTree(store.handleGet(CRD_COLLECTION).getBody().readUtf8())
                    .path("items");
        } catch (IOException e) {
            throw new UncheckedIOException("The stored CRD list is not JSON", e);
        }
    }
}
