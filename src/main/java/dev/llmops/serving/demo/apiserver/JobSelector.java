package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Pattern;

/**
 * The selector kube-apiserver generates for a new Job that brings none: its pods are labelled with the Job's uid and
 * name, and the selector matches the uid, so that kubectl logs job/NAME and the Job's owner find its pods.
 */
final class JobSelector {

    private static final Pattern JOBS = Pattern.compile("^/apis/batch/v1/namespaces/[^/]+/jobs(?:[/?].*)?$");
    private static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    private static final String JOB_NAME = "batch.kubernetes.io/job-name";

    private JobSelector() {}

    /** The created object as stored: a Job without selector gets the generated one; anything else is unchanged. */
    static String generated(String path, String created) {
        if (!JOBS.matcher(path).matches()) {
            return created;
        }
        ObjectNode job = ResourceVersions.read(created);
        ObjectNode spec = job.with("spec");
        if (spec.has("selector") || spec.path("manualSelector").asBoolean(false)) {
            return created;
        }
        String uid = job.path("metadata").path("uid").asText();
        String name = job.path("metadata").path("name").asText();
        spec.putObject("selector").putObject("matchLabels").put(CONTROLLER_UID, uid);
        spec.with("template")
                .with("metadata")
                .with("labels")
                .put(CONTROLLER_UID, uid)
                .put(JOB_NAME, name)
                .put("controller-uid", uid)
                .put("job-name", name);
        return job.toString();
    }
}
