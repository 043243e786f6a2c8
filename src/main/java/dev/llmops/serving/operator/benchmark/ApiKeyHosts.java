package dev.llmops.serving.operator.benchmark;

import dev.llmops.serving.api.v1alpha1.ConditionReasons;
import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.BenchmarkTarget;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The hosts a BenchmarkRun may send its {@code spec.target.apiKeySecret} to, as the platform team allow-lists them:
 * without this list any user who may create a run could carry any Secret of the namespace to any host. An entry is a
 * host name or IP address, or {@code *.domain} for every host under that domain; none are allowed by default.
 */
public final class ApiKeyHosts {

    /** The operator setting; the Helm value {@code benchmark.apiKeyHosts} sets it. */
    public static final String SETTING = "llmops.benchmark.api-key-hosts";

    public static final String HELM_VALUE = "benchmark.apiKeyHosts";

    private static final int MAX_HOST = 253;
    private static final Pattern ENTRY = Pattern.compile("^(\\*\\.)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?$|^\\[[0-9a-f:.]+]$");

    private final List<String> entries;

    /** @throws IllegalArgumentException naming the setting when an entry is not a host, an IP or {@code *.domain} */
    public ApiKeyHosts(List<String> entries) {
        this.entries = entries.stream()
                .map(String::strip)
                .filter(e -> !e.isEmpty())
                .map(e -> e.toLowerCase(Locale.ROOT))
                .toList();
        for (String entry : this.entries) {
            if (entry.length() > MAX_HOST || !ENTRY.matcher(entry).matches()) {
                throw new IllegalArgumentException(SETTING + ": '" + entry
                        + "' is not a host name, an IP address or *.domain (no scheme, port or path)");
            }
        }
    }

    /**
     * Why the run must not start: an API key Secret named for an external URL whose host is not allow-listed. Empty
     * when the target sends no key, or sends it to a ModelServer or an allow-listed host.
     */
    public Optional<TargetState.Refusal> refusal(BenchmarkTarget target) {
        if (target.apiKeySecret == null || target.url == null) {
            return Optional.empty();
        }
        Optional<String> host = host(target.url);
        if (host.isPresent() && allows(host.get())) {
            return Optional.empty();
        }
        String where = host.map(h -> "host " + h).orElse("a URL without a host");
        return Optional.of(new TargetState.Refusal(
                ConditionReasons.SECRET_HOST_NOT_ALLOWED,
                ("spec.target.apiKeySecret (Secret %s, key %s) would be sent to %s of spec.target.url, which the "
                                + "operator does not allow-list; no Job was created. Remove spec.target.apiKeySecret, "
                                + "or ask the operator's administrator to add the host to %s (Helm value %s) and "
                                + "create the run again.")
                        .formatted(target.apiKeySecret.name, target.apiKeySecret.key, where, SETTING, HELM_VALUE)));
    }

    boolean allows(String host) {
        String name = host.toLowerCase(Locale.ROOT).replaceAll("\\.$", "");
        return entries.stream()
                .anyMatch(entry -> entry.startsWith("*.") ? name.endsWith(entry.substring(1)) : name.equals(entry));
    }

    /** The host the runner connects to, as java.net.URI (which its HTTP client uses) reads the URL. */
    static Optional<String> host(String url) {
        try {
            return Optional.ofNullable(new URI(url).getHost());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
