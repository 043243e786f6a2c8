package dev.llmops.serving.e2e.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

/**
 * Starts one {@link E2eCluster} for the whole run (closed when the run ends), gives each test class a
 * {@link TestNamespace}, and injects both, and the cluster's KubernetesClient, into test parameters. Tests that did not
 * run (an assumption the cluster does not meet) are listed when the run ends, so a partial run is not read as a full
 * one.
 */
public final class E2eClusterExtension
        implements BeforeAllCallback,
                AfterAllCallback,
                ParameterResolver,
                TestWatcher,
                LifecycleMethodExecutionExceptionHandler {

    private static final ExtensionContext.Namespace STORE =
            ExtensionContext.Namespace.create(E2eClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        E2eCluster cluster = cluster(context);
        context.getStore(STORE)
                .put(TestNamespace.class, TestNamespace.create(cluster.client(), context.getRequiredTestClass()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        TestNamespace namespace = context.getStore(STORE).remove(TestNamespace.class, TestNamespace.class);
        if (namespace != null) {
            namespace.delete(cluster(context).client());
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == E2eCluster.class || type == KubernetesClient.class || type == TestNamespace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == TestNamespace.class) {
            return namespace(context);
        }
        E2eCluster cluster = cluster(context);
        return type == KubernetesClient.class ? cluster.client() : cluster;
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        skipped(context)
                .add(context.getRequiredTestClass().getSimpleName() + "."
                        + context.getRequiredTestMethod().getName() + ": " + cause.getMessage());
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable cause) throws Throwable {
        if (cause instanceof TestAbortedException aborted) {
            recordSkippedClass(context, aborted);
        }
        throw cause;
    }

    /** Lists a whole test class as not run, for an assumption that failed before any of its tests. */
    static void recordSkippedClass(ExtensionContext context, TestAbortedException cause) {
        Class<?> testClass = context.getRequiredTestClass();
        long methods = Arrays.stream(testClass.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(Test.class))
                .count();
        skipped(context).add(testClass.getSimpleName() + " (" + methods + " tests): " + cause.getMessage());
    }

    private static SkippedTests skipped(ExtensionContext context) {
        return context.getRoot()
                .getStore(STORE)
                .getOrComputeIfAbsent(SkippedTests.class, key -> new SkippedTests(), SkippedTests.class);
    }

    /** What did not run, printed when the run ends. */
    private static final class SkippedTests implements ExtensionContext.Store.CloseableResource {
        private final List<String> entries = new CopyOnWriteArrayList<>();

        void add(String entry) {
            entries.add(entry);
        }

        @Override
        public void close() {
            System.err.println("e2e: " + entries.size() + " skipped, so this was not a full run:");
            entries.forEach(entry -> System.err.println("  - " + entry));
        }
    }

    /** The test class's namespace, created before any other extension or method of the class runs. */
    static TestNamespace namespace(ExtensionContext context) {
        return context.getStore(STORE).get(TestNamespace.class, TestNamespace.class);
    }

    static E2eCluster cluster(ExtensionContext context) {
        Path workDirectory = ProjectPaths.resolve("target/e2e");
        return context.getRoot()
                .getStore(STORE)
                .getOrComputeIfAbsent(E2eCluster.class, key -> E2eCluster.start(workDirectory), E2eCluster.class);
    }
}
