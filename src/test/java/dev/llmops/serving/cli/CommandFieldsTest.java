package dev.llmops.serving.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * Picocli instantiates every subcommand to build the command tree, so a static field of a command is built by every
 * invocation, `--help` included: a JSON mapper or a Kubernetes serializer there costs each command hundreds of classes.
 */
class CommandFieldsTest {

    private static final List<String> HEAVY_PACKAGES = List.of("com.fasterxml.jackson.", "io.fabric8.");

    @Test
    void noCommandHoldsAJsonMapperOrKubernetesTypeInAStaticField() {
        List<String> offending = new ArrayList<>();
        for (Class<?> command :
                LlmServingCommand.class.getAnnotation(Command.class).subcommands()) {
            for (Field field : command.getDeclaredFields()) {
                String type = field.getType().getName();
                if (Modifier.isStatic(field.getModifiers())
                        && HEAVY_PACKAGES.stream().anyMatch(type::startsWith)) {
                    offending.add(command.getSimpleName() + "." + field.getName() + " (" + type + ")");
                }
            }
        }
        assertThat(offending).isEmpty();
    }
}
