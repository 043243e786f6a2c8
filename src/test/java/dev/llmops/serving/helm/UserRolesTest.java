package dev.llmops.serving.helm;

import static dev.llmops.serving.helm.RenderedChart.FULLNAME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * People get the project's kinds through Kubernetes' own view, edit and admin roles: reading with view, writing the
 * spec with edit and admin, never the status, and none of it granted to the operator.
 */
class UserRolesTest {

    private static final String GROUP = "serving.llmops.dev";
    private static final List<String> KINDS = List.of("modelservers", "benchmarkruns", "servingexperiments");
    private static final String AGGREGATE = "rbac.authorization.k8s.io/aggregate-to-";

    @Test
    void viewReadsEveryKindAndAggregatesIntoEveryUserRole() {
        ClusterRole view = role(RenderedChart.render(Map.of()), FULLNAME + "-view");

        assertThat(view.getMetadata().getLabels())
                .containsEntry(AGGREGATE + "view", "true")
                .containsEntry(AGGREGATE + "edit", "true")
                .containsEntry(AGGREGATE + "admin", "true");
        assertThat(view.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getApiGroups()).containsExactly(GROUP);
            assertThat(rule.getResources()).containsExactlyInAnyOrderElementsOf(KINDS);
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        });
    }

    @Test
    void editWritesTheSpecOfEveryKindButNotItsStatus() {
        ClusterRole edit = role(RenderedChart.render(Map.of()), FULLNAME + "-edit");

        assertThat(edit.getMetadata().getLabels())
                .containsEntry(AGGREGATE + "edit", "true")
                .containsEntry(AGGREGATE + "admin", "true")
                .doesNotContainKey(AGGREGATE + "view");
        assertThat(edit.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getApiGroups()).containsExactly(GROUP);
            assertThat(rule.getResources()).containsExactlyInAnyOrderElementsOf(KINDS);
            assertThat(rule.getVerbs())
                    .containsExactlyInAnyOrder("create", "update", "patch", "delete", "deletecollection");
        });
    }

    @Test
    void theUserRolesAreBoundToNoOneAndCanBeLeftOut() {
        RenderedChart chart = RenderedChart.render(Map.of());
        List<String> bound = Stream.concat(
                        chart.all(ClusterRoleBinding.class).map(b -> b.getRoleRef()),
                        chart.all(RoleBinding.class).map(b -> b.getRoleRef()))
                .map(ref -> ref.getName())
                .toList();

        assertThat(bound).doesNotContain(FULLNAME + "-view", FULLNAME + "-edit");
        assertThat(chart.grantedRules())
                .extracting(RenderedChart.ScopedRule::rule)
                .extracting(PolicyRule::getVerbs)
                .noneSatisfy(verbs -> assertThat(verbs).contains("create", "deletecollection"));
        assertThat(RenderedChart.render(Map.of("userRoles.aggregate", false)).all(ClusterRole.class))
                .extracting(r -> r.getMetadata().getName())
                .containsExactly(FULLNAME + "-cluster");
    }

    private static ClusterRole role(RenderedChart chart, String name) {
        return chart.find(ClusterRole.class, name).orElseThrow(() -> new AssertionError("no ClusterRole " + name));
    }
}
