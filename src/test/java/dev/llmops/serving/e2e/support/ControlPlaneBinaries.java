package dev.llmops.serving.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the control-plane binaries that hack/controlplane/build.sh laid out for kube-api-test, at the Kubernetes
 * version pinned in the build's wrapper module, so the suite never runs binaries of another version by accident.
 */
public record ControlPlaneBinaries(String version, Path kubeApiTestDir, Path directory) {

    static final String BUILD_SCRIPT = "hack/controlplane/build.sh";
    private static final String PINNED_MODULE = "hack/controlplane/kubernetes/go.mod";
    private static final Pattern KUBERNETES_REQUIREMENT = Pattern.compile("(?m)^require k8s\\.io/kubernetes v(\\S+)$");
    private static final List<String> NAMES =
            List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl");

    /** The binaries of the pinned version; fails with the command to run when any is missing. */
    public static ControlPlaneBinaries locate() {
        String version = pinnedVersion(ProjectPaths.resolve(PINNED_MODULE));
        Path kubeApiTestDir = layoutRoot();
        Path directory = kubeApiTestDir.resolve("k8s").resolve(version + "-linux-" + architecture());
        List<String> missing = NAMES.stream()
                .filter(name -> !Files.isExecutable(directory.resolve(name)))
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Control-plane binaries " + missing + " missing in " + directory + ": run "
                    + BUILD_SCRIPT + " first (or set -De2e.useExistingCluster=true with KUBECONFIG)");
        }
        return new ControlPlaneBinaries(version, kubeApiTestDir, directory);
    }

    /** Where hack/controlplane/build.sh lays the binaries out: {@code $KUBE_API_TEST_DIR}, else ~/.kubeapitest. */
    static Path layoutRoot() {
        String setting = System.getenv("KUBE_API_TEST_DIR");
        return setting != null ? Path.of(setting) : Path.of(System.getProperty("user.home"), ".kubeapitest");
    }

    public Path path(String name) {
        return directory.resolve(name);
    }

    private static String pinnedVersion(Path goMod) {
        try {
            Matcher matcher = KUBERNETES_REQUIREMENT.matcher(Files.readString(goMod));
            if (!matcher.find()) {
                throw new IllegalStateException(goMod + " has no 'require k8s.io/kubernetes vX.Y.Z' line");
            }
            return matcher.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the pinned Kubernetes version from " + goMod, e);
        }
    }

    private static String architecture() {
        String arch = System.getProperty("os.arch");
        return arch.equals("aarch64") ? "arm64" : "amd64";
    }
}
