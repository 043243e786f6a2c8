package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Pattern;

/**
 * What kube-apiserver fills in on a new object that the demo's clients rely on: a Job that brings no selector gets
 * the generated one (its pods labelled with the Job's uid and name, the selector matching the uid), so that kubectl
 * logs job/NAME finds its pods; a pod without phase is Pending.
 */
final class CreationDefaults {

    private static final Pattern JOBS = Pattern.compile("^/apis/batch/v1/namespaces/[^/]+/jobs(?:[/?].*)?$");
    private static final Pattern PODS = Pattern.compile("^/api/v1/namespaces/[^/]+/pods(?:[/?].*)?$");
    private static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    private static final String JOB_NAME = "batch.kubernetes.io/job-name";

    private CreationDefaults() {}

    /** The created object as stored. */
    static String applied(String path, String created) {
        if (PODS.matcher(path).matches()) {
            ObjectNode pod = ResourceVersions.read(created);
            if (pod.path("status").path("phase").asText("").isEmpty()) {
                pod.with("status").put("phase", "Pending");
                return pod.toString();
            }
            return created;
        }
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
