package dev.llmops.serving.demo.apiserver;

import java.time.Clock;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which Table a list or object path is printed with: a CRD's printer columns, or a built-in kind's printer. */
final class ServerSideTables {

    /** A custom resource list or object: group, version, namespace (optional), plural, name (optional). */
    private static final Pattern CUSTOM_RESOURCE_PATH =
            Pattern.compile("^/apis/([^/]+)/([^/]+)(?:/namespaces/([^/]+))?/([^/]+)(?:/([^/]+))?$");
    /** A core v1 list or object: namespace (optional), plural, name (optional). */
    private static final Pattern CORE_PATH = Pattern.compile("^/api/v1(?:/namespaces/([^/]+))?/([^/]+)(?:/([^/]+))?$");

    private final InstalledCrds crds;
    private final Clock clock;

    ServerSideTables(InstalledCrds crds, Clock clock) {
        this.crds = crds;
        this.clock = clock;
    }

    /** The columns for the path (without query); empty when kubectl is to print the plain list. */
    Optional<TableColumns> forPath(String path) {
        Matcher core = CORE_PATH.matcher(path);
        if (core.matches()) {
            return BuiltInTables.of(core.group(2), clock.instant());
        }
        Matcher resource = CUSTOM_RESOURCE_PATH.matcher(path);
        if (!resource.matches()) {
            return Optional.empty();
        }
        return crds.find(resource.group(1), resource.group(2), resource.group(4))
                .map(crd -> new CustomResourceTable(crd, clock.instant()));
    }
}
