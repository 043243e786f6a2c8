package dev.llmops.serving.config;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes a second operator replica safe: only the holder of a Lease reconciles, the other waits to take over. The
 * operator SDK activates it in the prod profile; the lease lives in the operator's own namespace unless configured.
 */
public class LeaderElection {

    @Produces
    @Singleton
    LeaderElectionConfiguration leaderElection(
            @ConfigProperty(name = "llmops.leader-election.lease-name", defaultValue = "llm-serving-operator") String leaseName,
            @ConfigProperty(name = "llmops.leader-election.lease-namespace") Optional<String> leaseNamespace) {
        LeaderElectionConfigurationBuilder builder = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(leaseName);
        leaseNamespace.ifPresent(builder::withLeaseNamespace);
        return builder.build();
    }
}
