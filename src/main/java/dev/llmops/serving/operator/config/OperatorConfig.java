package dev.llmops.serving.operator.config;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.spec.RetentionGroup;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Operator-wide defaults a platform team sets once (Helm values), instead of in every resource. */
@ConfigMapping(prefix = "llmops")
public interface OperatorConfig {

    Sglang sglang();

    Runner runner();

    Benchmark benchmark();

    NetworkPolicies networkPolicy();

    Results results();

    /**
     * How long after its retries are used up a Stalled ModelServer or BenchmarkRun is reconciled again, for causes
     * outside its spec (a denying admission webhook, a quota, a missing permission) that may go away; any change to
     * the resource or its objects reconciles it sooner.
     */
    @WithDefault("2m")
    Duration stalledRecheck();

    /** Defaults of the SGLang pods. */
    interface Sglang {
        /** Pinned CUDA 13 SGLang image used when a ModelServer names none. */
        @WithDefault("lmsysorg/sglang:v0.5.18-cu130")
        String image();

        /** Runtime class of GPU pods (often {@code nvidia}) when a ModelServer names none. */
        Optional<String> runtimeClassName();
    }

    /** Defaults of the benchmark Jobs. */
    interface Runner {
        /** Image that runs {@code bench}: the operator's own image. */
        @WithDefault("ghcr.io/llmops-dev/llm-serving-operator:0.1.0")
        String image();
    }

    /** Whether the platform restricts traffic to the SGLang pods with NetworkPolicies (Helm value networkPolicy). */
    interface NetworkPolicies {
        /**
         * Set with the chart's networkPolicy.enabled: besides the chart's policy for the servers' HTTP port, each
         * multi-node ModelServer gets a NetworkPolicy that lets its own pods, and no others, reach each other.
         */
        @WithDefault("false")
        boolean enabled();
    }

    /** How the BenchmarkRun controller follows a running benchmark. */
    interface Benchmark {
        /** How often it reads the benchmark pod's log for the runner's progress (status.progress). */
        @WithDefault("30s")
        Duration progressPoll();

        /**
         * Hosts (names, IP addresses or {@code *.domain}) an external {@code spec.target.url} may have when the run
         * sends {@code spec.target.apiKeySecret}; a run naming any other host fails without a Job. None by default.
         */
        Optional<List<String>> apiKeyHosts();

        /** The retention of runs without spec.retention (the chart's benchmark.retention); none by default. */
        Retention retention();

        /** A default spec.retention: the same fields, each optional; no field set means runs are kept. */
        interface Retention {
            Optional<Integer> ttlSecondsAfterFinished();

            Optional<Integer> keepLast();

            @WithDefault("Target")
            RetentionGroup groupBy();
        }
    }

    /** Where finished runs are kept beyond the cluster (the chart's results). */
    interface Results {
        S3 s3();

        /**
         * The object-store archive, on when a bucket is set (the chart's results.s3.enabled): an S3-compatible bucket
         * every finished run's record is written to, under
         * {@code <prefix>/<namespace>/<run>/<uid>/}; the credentials are the AWS SDK's defaults (the chart sets
         * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from a Secret, or a web identity is used).
         */
        interface S3 {
            /** The store's URL; none for AWS S3 itself. */
            Optional<URI> endpoint();

            Optional<String> bucket();

            @WithDefault("benchmarkruns")
            String prefix();

            @WithDefault("us-east-1")
            String region();

            /** Whether the bucket goes in the path rather than the host name, as MinIO, Ceph and SeaweedFS need. */
            @WithDefault("false")
            boolean pathStyle();

            /** How long one write or read may take, the client's own retries included. */
            @WithDefault("30s")
            Duration timeout();
        }
    }
}
