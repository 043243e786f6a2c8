package dev.llmops.serving.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts one {@link E2eCluster} for the whole run (closed when the run ends), gives each test class a
 * {@link TestNamespace}, and injects both, and the cluster's KubernetesClient, into test parameters.
 */
public final class E2eClusterExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

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
            return context.getStore(STORE).get(TestNamespace.class, TestNamespace.class);
        }
        E2eCluster cluster = cluster(context);
        return type == KubernetesClient.class ? cluster.client() : cluster;
    }

    private static E2eCluster cluster(ExtensionContext context) {
        Path workDirectory = ProjectPaths.resolve("target/e2e");
        return context.getRoot()
                .getStore(STORE)
                .getOrComputeIfAbsent(E2eCluster.class, key -> E2eCluster.start(workDirectory), E2eCluster.class);
    }
}
