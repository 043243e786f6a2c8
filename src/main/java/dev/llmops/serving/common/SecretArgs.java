package dev.llmops.serving.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Hides the values of secret-bearing server flags ({@code --api-key}, {@code --hf-token}, any flag with a word key,
 * token, secret or password) wherever server arguments are shown: ModelServer status, BenchmarkRun provenance and the
 * report. A user may still put such a flag in spec.extraArgs; its value must not travel further than the pod.
 */
public final class SecretArgs {

    public static final String REDACTED = "<redacted>";

    private static final Set<String> SECRET_WORDS =
            Set.of("key", "apikey", "token", "secret", "password", "passwd", "credential", "credentials");

    private SecretArgs() {}

    /** The arguments with the value of every secret-bearing flag replaced, as {@code --flag=value} or its next word. */
    public static List<String> redact(List<String> args) {
        List<String> shown = new ArrayList<>(args.size());
        boolean valueFollows = false;
        for (String arg : args) {
            if (valueFollows && !arg.startsWith("--")) {
                shown.add(REDACTED);
                valueFollows = false;
                continue;
            }
            valueFollows = false;
            int equals = arg.indexOf('=');
            String flag = equals < 0 ? arg : arg.substring(0, equals);
            if (!isSecretFlag(flag)) {
                shown.add(arg);
            } else if (equals >= 0) {
                shown.add(flag + "=" + REDACTED);
            } else {
                shown.add(arg);
                valueFollows = true;
            }
        }
        return shown;
    }

    static boolean isSecretFlag(String flag) {
        if (!flag.startsWith("-")) {
            return false;
        }
        for (String word : flag.replaceFirst("^-+", "").toLowerCase(Locale.ROOT).split("[-_.]")) {
            if (SECRET_WORDS.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
