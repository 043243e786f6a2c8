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
 * errors (everything with --verbose), none once the demo is stopping, and write no colour codes unless the output is a
 * terminal.
 */
public final class DemoConsole {

    static final String PROJECT_CATEGORY = "dev.llmops.";

    private final AtomicBoolean stopping = new AtomicBoolean();

    private DemoConsole() {}

    /** Applies to the console handlers Quarkus has set up; lasts until the process ends. */
    public static DemoConsole configure(boolean verbose, boolean terminal) {
        DemoConsole console = new DemoConsole();
        for (Handler handler : LogContext.getLogContext().getLogger("").getHandlers()) {
            console.configure(handler, verbose, terminal);
        }
        return console;
    }

    /**
     * From now on the console passes no log record, unless --verbose asked for every one: while the demo stops, what
     * the operator logs about its API going away under a reconcile in flight is not news to the person who stopped it.
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
        if (!verbose) {
            Filter configured = console.getFilter();
            console.setFilter(r -> !stopping.get()
                    && fromProjectAndWorthSeeing(r)
                    && (configured == null || configured.isLoggable(r)));
        }
        if (!terminal && console.getFormatter() instanceof ColorPatternFormatter colour) {
            console.setFormatter(new PatternFormatter(colour.getPattern()));
        }
    }

    static boolean fromProjectAndWorthSeeing(LogRecord record) {
        return record.getLoggerName() != null
                && record.getLoggerName().startsWith(PROJECT_CATEGORY)
                && record.getLevel().intValue() >= Level.WARNING.intValue();
    }
}
