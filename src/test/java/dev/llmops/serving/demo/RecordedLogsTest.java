package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.contract.SampleSet;
import java.io.PrintWriter;
import org.junit.jupiter.api.Test;

/** Pod logs are kept per pod and container, bounded to their end, whole lines, and safe to write from many threads. */
class RecordedLogsTest {

    @Test
    void servesWhatTheContainerWroteByNameAndForTheOnlyContainer() {
        RecordedLogs logs = new RecordedLogs();
        PrintWriter log = new PrintWriter(logs.open("demo", "bench-eagle3-x", "uid-1", "bench"), true);
        log.println("PROGRESS 1/5 single");

        assertThat(logs.log("demo", "bench-eagle3-x", "bench")).contains("PROGRESS 1/5 single\n");
        assertThat(logs.log("demo", "bench-eagle3-x", null)).contains("PROGRESS 1/5 single\n");
        assertThat(logs.log("demo", "bench-eagle3-x", "sidecar")).isEmpty();
        assertThat(logs.log("other", "bench-eagle3-x", "bench")).isEmpty();
    }

    @Test
    void keepsTheLastLinesWithinTheLimit() {
        RecordedLogs logs = new RecordedLogs(100);
        PrintWriter log = new PrintWriter(logs.open("demo", "pod", "uid-1", "bench"), true);
        for (int i = 0; i < 50; i++) {
            log.printf("line %02d%n", i);
        }

        String kept = logs.log("demo", "pod", "bench").orElseThrow();
        assertThat(kept.length()).isLessThanOrEqualTo(100);
        assertThat(kept).startsWith("line ").endsWith("line 49\n");
        assertThat(kept.lines()).allMatch(l -> l.matches("line \\d\\d"));
    }

    @Test
    void theDefaultLimitIs1MiBRoomForTheLongestSampleLine() {
        RecordedLogs logs = new RecordedLogs();
        PrintWriter log = new PrintWriter(logs.open("demo", "pod", "uid-1", "bench"), true);
        String line = "x".repeat(1023);
        for (int i = 0; i < 1100; i++) {
            log.println(line);
        }
        String sampleLine = SampleSet.LOG_PREFIX + "y".repeat(SampleSet.MAX_ENCODED_CHARS);
        log.println(sampleLine);

        String kept = logs.log("demo", "pod", "bench").orElseThrow();
        assertThat(kept).hasSizeLessThanOrEqualTo(1024 * 1024).endsWith(sampleLine + "\n");
    }

    @Test
    void aDeletedPodsLogGoesButNotThatOfANewerPodOfTheSameName() {
        RecordedLogs logs = new RecordedLogs();
        logs.open("demo", "pod", "uid-1", "bench");
        new PrintWriter(logs.open("demo", "pod", "uid-2", "bench"), true).println("second");

        logs.remove("demo/pod", "uid-1");
        assertThat(logs.log("demo", "pod", "bench")).contains("second\n");
        logs.remove("demo/pod", "uid-2");
        assertThat(logs.log("demo", "pod", "bench")).isEmpty();
    }

    @Test
    void readersSeeWholeLinesWithinTheLimitWhileTheContainerWrites() throws InterruptedException {
        RecordedLogs logs = new RecordedLogs(1000);
        PrintWriter log = new PrintWriter(logs.open("demo", "pod", "uid-1", "bench"), true);
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 20_000; i++) {
                log.println("line " + i);
            }
        });
        writer.start();
        int reads = 0;
        while (writer.isAlive()) {
            String read = logs.log("demo", "pod", "bench").orElseThrow();
            assertThat(read.length()).isLessThanOrEqualTo(1000);
            assertThat(read.lines()).allMatch(l -> l.matches("line \\d+"));
            reads++;
        }
        writer.join();

        assertThat(reads).isPositive();
        assertThat(logs.log("demo", "pod", "bench").orElseThrow()).endsWith("line 19999\n");
    }
}
