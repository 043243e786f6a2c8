package dev.llmops.serving.common.options;

import java.util.List;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** Checks of option values their types do not catch, reported the way picocli reports a value it cannot convert. */
public final class OptionValues {

    private OptionValues() {}

    /** {@code Invalid value for option '--port': 99999 is not ...}: the option, the value as typed, and the cause. */
    public static ParameterException invalid(CommandSpec spec, String option, String cause) {
        OptionSpec optionSpec = spec.findOption(option);
        List<String> typed = optionSpec.originalStringValues();
        String value = typed.isEmpty() ? String.valueOf(optionSpec.getValue()) : typed.get(typed.size() - 1);
        return new ParameterException(
                spec.commandLine(),
                "Invalid value for option '" + option + "': " + value + " " + cause,
                optionSpec,
                value);
    }

    /** Fails with {@link #invalid} unless {@code port} is a port number, 0 meaning any free one. */
    public static void requirePort(CommandSpec spec, String option, int port) {
        require(spec, option, port >= 0 && port <= 65535, "is not a port number (0 to 65535; 0 picks a free one)");
    }

    /** Fails with {@link #invalid} unless {@code valid}. */
    public static void require(CommandSpec spec, String option, boolean valid, String cause) {
        if (!valid) {
            throw invalid(spec, option, cause);
        }
    }

    /** The value of the environment variable {@code --api-key-env} names; null when the option is not given. */
    public static String apiKey(CommandSpec spec, String variable) {
        return apiKey(spec, variable, System::getenv);
    }

    /** Like {@link #apiKey(CommandSpec, String)}, reading variables from {@code environment}. */
    public static String apiKey(CommandSpec spec, String variable, UnaryOperator<String> environment) {
        if (variable == null) {
            return null;
        }
        String key = environment.apply(variable);
        if (key == null || key.isBlank()) {
            throw invalid(spec, "--api-key-env", "is not set in the environment (export it or drop the option)");
        }
        return key;
    }
}
