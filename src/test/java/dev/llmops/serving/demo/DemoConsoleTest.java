package dev.llmops.serving.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class DemoConsoleTest {

    private static final LogRecord PROJECT_WARNING =
            record("dev.llmops.serving.operator.modelserver.ModelServerReconciler", Level.WARNING);
    private static final LogRecord SDK_INFO = record("io.javaoperatorsdk.operator.Operator", Level.INFO);
    private static final LogRecord SDK_ERROR =
            record("io.javaoperatorsdk.operator.processing.event.ReconciliationDispatcher", Level.SEVERE);

    private static LogRecord record(String logger, Level level) {
        LogRecord record = new LogRecord(level, "message");
        record.setLoggerName(logger);
        return record;
    }

    /** Whether the console passes the record when it is logged on a thread of this name. */
    private static boolean passesOn(String thread, DemoConsole console, LogRecord record, boolean verbose)
            throws InterruptedException {
        AtomicBoolean passed = new AtomicBoolean();
        Thread logging = new Thread(() -> passed.set(console.passes(record, verbose)), thread);
        logging.start();
        logging.join();
        return passed.get();
    }

    @Test
    void whileRunningOnlyTheProjectsWarningsPassUnlessVerbose() throws InterruptedException {
        DemoConsole console = new DemoConsole();
        String reconcile = DemoConsole.RECONCILE_THREAD_PREFIX + "modelserver-7";
        assertThat(passesOn("main", console, PROJECT_WARNING, false)).isTrue();
        assertThat(passesOn(reconcile, console, PROJECT_WARNING, false)).isTrue();
        assertThat(passesOn("main", console, SDK_INFO, false)).isFalse();
        assertThat(passesOn(reconcile, console, SDK_ERROR, false)).isFalse();
        assertThat(passesOn("main", console, SDK_INFO, true)).isTrue();
        assertThat(passesOn(reconcile, console, SDK_ERROR, true)).isTrue();
    }

    @Test
    void onceStoppingNothingPassesAndVerboseDropsOnlyTheWarningsOfReconciles() throws InterruptedException {
        DemoConsole console = new DemoConsole();
        console.stopping();
        String reconcile = DemoConsole.RECONCILE_THREAD_PREFIX + "modelserver-7";
        assertThat(passesOn("main", console, PROJECT_WARNING, false)).isFalse();
        assertThat(passesOn("main", console, SDK_INFO, true)).isTrue();
        assertThat(passesOn("main", console, SDK_ERROR, true)).isTrue();
        assertThat(passesOn(reconcile, console, SDK_INFO, true)).isTrue();
        assertThat(passesOn(reconcile, console, SDK_ERROR, true)).isFalse();
        assertThat(passesOn(reconcile, console, PROJECT_WARNING, true)).isFalse();
    }
}
