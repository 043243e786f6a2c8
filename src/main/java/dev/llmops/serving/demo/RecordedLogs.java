package dev.llmops.serving.demo;

import dev.llmops.serving.demo.apiserver.PodLogSource;
import java.io.Writer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container logs the kubelet stand-in keeps for pods it runs, so that the embedded API can serve them as a kubelet
 * would: written by the containers' threads, read by the API's, and bounded to the last {@link #LIMIT} characters of
 * each container, cut at a line start.
 */
final class RecordedLogs implements PodLogSource {

    /** Room for a benchmark pod's sample line, its last and longest line. */
    static final int LIMIT = 1024 * 1024;

    private record Entry(String uid, String container, StringBuilder text) {}

    private final Map<String, Entry> logs = new ConcurrentHashMap<>();
    private final int limit;

    RecordedLogs() {
        this(LIMIT);
    }

    RecordedLogs(int limit) {
        this.limit = limit;
    }

    /** Starts the log of a pod's container (replacing that of an earlier pod of the same name); returns its writer. */
    Writer open(String namespace, String pod, String uid, String container) {
        Entry entry = new Entry(uid, container, new StringBuilder());
        logs.put(key(namespace, pod), entry);
        return new Writer() {
            @Override
            public void write(char[] chars, int offset, int length) {
                synchronized (entry) {
                    entry.text.append(chars, offset, length);
                    trim(entry.text);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
    }

    /** Forgets the log of a pod that is gone (podKey: namespace/name); a newer pod of the same name keeps its own. */
    void remove(String podKey, String uid) {
        logs.computeIfPresent(podKey, (key, entry) -> entry.uid.equals(uid) ? null : entry);
    }

    /** The log of the named container, or of the pod's only one when no container is named. */
    @Override
    public Optional<String> log(String namespace, String pod, String container) {
        Entry entry = logs.get(key(namespace, pod));
        if (entry == null || (container != null && !container.equals(entry.container))) {
            return Optional.empty();
        }
        synchronized (entry) {
            return Optional.of(entry.text.toString());
        }
    }

    private void trim(StringBuilder text) {
        if (text.length() > limit) {
            int cut = text.length() - limit;
            int lineStart = text.indexOf("\n", cut - 1) + 1;
            text.delete(0, lineStart > 0 ? lineStart : cut);
        }
    }

    private static String key(String namespace, String pod) {
        return namespace + "/" + pod;
    }
}
