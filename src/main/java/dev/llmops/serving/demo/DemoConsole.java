package dev.llmops.serving.demo;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.formatters.ColorPatternFormatter;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * Keeps the demo's output what a person reads: the log's console handlers pass only this project's warnings and
 * errors (everything with --verbose), none once the demo is stopping (with --verbose, no warning from a reconcile the
 * stop cuts short), and write no colour codes unless the output is a terminal.
 */
public final class DemoConsole {

    static final String PROJECT_CATEGORY = "dev.llmops.";

    static final String RECONCILE_THREAD_PREFIX = "ReconcilerExecutor-";

    private final AtomicBoolean stopping = new AtomicBoolean();

    DemoConsole() {}

    /** Applies to the console handlers Quarkus has set up; lasts until the process ends. */
    public static DemoConsole configure(boolean verbose, boolean terminal) {
        DemoConsole console = new DemoConsole();
        for (Handler handler : LogContext.getLogContext().getLogger("").getHandlers()) {
            console.configure(handler, verbose, terminal);
        }
        return console;
    }

    /**
     * From now on the console passes no log record, and with --verbose no warning or error from a reconcile: while the
     * demo stops, what a reconcile in flight reports about being interrupted, or about its API going away, is not news
     * to the person who stopped it.
     */
    public void stopping() {
        stopping.set(true);
    }

    private void configure(Handler handler, boolean verbose, boolean terminal) {
        if (handler instanceof ExtHandler parent) {
            for (Handler child : parent.getHandlers()) {
                configure(child, verbose, terminal);
            }
        }
        if (!(handler instanceof ConsoleHandler console)) {
            return;
        }
        Filter configured = console.getFilter();
        console.setFilter(r -> passes(r, verbose) && (configured == null || configured.isLoggable(r)));
        if (!terminal && console.getFormatter() instanceof ColorPatternFormatter colour) {
            console.setFormatter(new PatternFormatter(colour.getPattern()));
        }
    }

    boolean passes(LogRecord record, boolean verbose) {
        if (stopping.get()) {
            return verbose && !(warningOrWorse(record) && onReconcileThread());
        }
        return verbose || fromProjectAndWorthSeeing(record);
    }

    /** Whether the record is logged by a reconcile; the operator SDK names its reconcile threads so. */
    private static boolean onReconcileThread() {
        return Thread.currentThread().getName().startsWith(RECONCILE_THREAD_PREFIX);
    }

    private static boolean warningOrWorse(LogRecord record) {
        return record.getLevel().intValue() >= Level.WARNING.intValue();
    }

    static boolean fromProjectAndWorthSeeing(LogRecord record) {
        return record.getLoggerName() != null
                && record.getLoggerName().startsWith(PROJECT_CATEGORY)
                && warningOrWorse(record);
    }
}
