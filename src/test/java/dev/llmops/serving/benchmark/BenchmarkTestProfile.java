package dev.llmops.serving.benchmark;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Runs the BenchmarkRun controller on the namespaces of the controller tests only, and keeps the ModelServer controller
 * away from them: the tests play the ModelServer controller's part by writing ModelServer status themselves, and the
 * cold-start test runs its own operators in a namespace of its own. Runs may send an API key to one domain only.
 */
public class BenchmarkTestProfile implements QuarkusTestProfile {

    public static final String FLOW = "bench-flow";
    public static final String TIMEOUT = "bench-timeout";
    public static final String INVALID = "bench-invalid";
    public static final String DELETED = "bench-deleted";
    public static final String FAILED = "bench-failed";
    public static final String BASELINE = "bench-baseline";
    public static final String COLD_START = "bench-cold-start";
    public static final String CAPACITY = "bench-capacity";
    public static final String SECRET_HOST = "bench-secret-host";
    public static final String SERVERS_SECRET = "bench-servers-secret";
    public static final String REFUSED = "bench-refused";
    public static final String FIRST_STATUS = "bench-first-status";
    public static final String CONFLICT = "bench-conflict";
    public static final String RETENTION = "bench-retention";
    /** The only host runs of these tests may send an API key Secret to. */
    static final String ALLOWED_KEY_HOST = "*.allowed.example";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.operator-sdk.controllers.benchmarkrun.namespaces",
                String.join(
                        ",",
                        FLOW,
                        TIMEOUT,
                        INVALID,
                        DELETED,
                        FAILED,
                        BASELINE,
                        CAPACITY,
                        SECRET_HOST,
                        SERVERS_SECRET,
                        REFUSED,
                        FIRST_STATUS,
                        CONFLICT,
                        RETENTION),
                "quarkus.operator-sdk.controllers.modelserver.namespaces",
                "no-modelserver-controller-here",
                "llmops.benchmark.api-key-hosts",
                ALLOWED_KEY_HOST);
    }
}
