package dev.llmops.serving.operator.config;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Makes a second operator replica safe: only the holder of a Lease reconciles, the other waits to take over. The
 * operator SDK activates it in the prod profile; the lease lives in the operator's own namespace unless configured.
 * A replica that loses its lease while running exits with status 1, so that two replicas never reconcile at once and
 * its Deployment restarts it as a standby; one that stops on purpose (shutdown, the end of the demo) exits normally.
 */
@Singleton
public class LeaderElection {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);

    private volatile boolean stopping;

    @Produces
    @Singleton
    LeaderElectionConfiguration leaderElection(
            @ConfigProperty(name = "llmops.leader-election.lease-name", defaultValue = "llm-serving-operator")
                    String leaseName,
            @ConfigProperty(name = "llmops.leader-election.lease-namespace") Optional<String> leaseNamespace) {
        LeaderElectionConfigurationBuilder builder = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(
                        leaseName)
                .withExitOnStopLeading(false)
                .withLeaderCallbacks(new LeaderCallbacks(() -> {}, this::leadershipEnded, identity -> {}));
        leaseNamespace.ifPresent(builder::withLeaseNamespace);
        return builder.build();
    }

    /** Called before the controllers are stopped on purpose: giving the lease up then is not a lost lease. */
    public void stopping() {
        stopping = true;
    }

    void onShutdown(@Observes @Priority(0) ShutdownEvent shutdown) {
        stopping();
    }

    private void leadershipEnded() {
        if (!stopping) {
            LOG.error("Lost the leader-election lease: exiting so that no two replicas reconcile at once");
            System.exit(1);
        }
    }
}
