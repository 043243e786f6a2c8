package dev.llmops.serving.operator.toolkit;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jboss.logging.Logger;

/** Records Kubernetes Events on our resources so kubectl describe shows each transition; never fails a reconcile. */
public class EventRecorder {

    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    private static final String COMPONENT = "llm-serving-operator";
    private static final Logger LOG = Logger.getLogger(EventRecorder.class);

    private final KubernetesClient client;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    /** Records one event; the message is cut to {@link StatusText#MAX_CHARS}, since it often quotes a server. */
    public void record(HasMetadata object, String type, String reason, String message) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        var event = new EventBuilder()
                .withNewMetadata()
                .withGenerateName(object.getMetadata().getName() + ".")
                .withNamespace(object.getMetadata().getNamespace())
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withApiVersion(object.getApiVersion())
                        .withKind(object.getKind())
                        .withName(object.getMetadata().getName())
                        .withNamespace(object.getMetadata().getNamespace())
                        .withUid(object.getMetadata().getUid())
                        .withResourceVersion(object.getMetadata().getResourceVersion())
                        .build())
                .withType(type)
                .withReason(reason)
                .withMessage(StatusText.bounded(message))
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withReportingComponent(COMPONENT)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .build();
        try {
            client.v1()
                    .events()
                    .inNamespace(object.getMetadata().getNamespace())
                    .resource(event)
                    .create();
        } catch (KubernetesClientException e) {
            LOG.warnf(
                    "Could not record event %s on %s/%s: %s",
                    reason, object.getKind(), object.getMetadata().getName(), e.getMessage());
        }
    }
}
