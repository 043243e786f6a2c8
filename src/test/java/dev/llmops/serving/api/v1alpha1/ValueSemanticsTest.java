package dev.llmops.serving.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmops.serving.api.v1alpha1.benchmarkrun.BenchmarkRun;
import dev.llmops.serving.api.v1alpha1.modelserver.ModelServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API classes compare by value, field by field, as the reconcilers rely on when they decide whether a status
 * changed: two objects that differ in any one field are unequal, two alike are equal with the same hash.
 */
class ValueSemanticsTest {

    @Test
    void everyApiClassComparesEveryFieldByValue() throws Exception {
        List<Class<?>> classes = apiClasses();
        assertThat(classes).hasSizeGreaterThan(25);
        for (Class<?> type : classes) {
            assertThat(type.getDeclaredMethod("equals", Object.class))
                    .as(type.getSimpleName())
                    .isNotNull();
            assertThat(type.getDeclaredMethod("hashCode"))
                    .as(type.getSimpleName())
                    .isNotNull();
            Object plain = type.getDeclaredConstructor().newInstance();
            assertThat(plain)
                    .as(type.getSimpleName())
                    .isEqualTo(type.getDeclaredConstructor().newInstance())
                    .hasSameHashCodeAs(type.getDeclaredConstructor().newInstance());
            for (Field field : instanceFields(type)) {
                Object changed = type.getDeclaredConstructor().newInstance();
                field.set(changed, otherValue(field, field.get(changed)));
                assertThat(changed)
                        .as("%s.%s is compared", type.getSimpleName(), field.getName())
                        .isNotEqualTo(plain);
            }
        }
    }

    private static Object otherValue(Field field, Object current) throws ReflectiveOperationException {
        Class<?> type = field.getType();
        if (current != null) {
            return type == String.class
                    ? current + "-changed"
                    : type == Integer.class ? (Integer) current + 1 : type == Boolean.class ? !(Boolean) current : null;
        }
        if (type == String.class) {
            return "changed";
        } else if (type == Integer.class) {
            return 7;
        } else if (type == Long.class) {
            return 7L;
        } else if (type == Double.class) {
            return 7.5;
        } else if (type == Boolean.class) {
            return true;
        } else if (type.isEnum()) {
            return type.getEnumConstants()[0];
        } else if (List.class.isAssignableFrom(type)) {
            return new ArrayList<>(List.of("changed"));
        }
        return type.getDeclaredConstructor().newInstance();
    }

    /** The class's own fields and those of its abstract superclasses in the API, which no other test instantiates. */
    private static List<Field> instanceFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type;
                c == type
                        || Modifier.isAbstract(c.getModifiers())
                                && c.getPackageName().startsWith(ValueSemanticsTest.class.getPackageName());
                c = c.getSuperclass()) {
            Stream.of(c.getDeclaredFields())
                    .filter(f -> !Modifier.isStatic(f.getModifiers()))
                    .forEach(fields::add);
        }
        return fields;
    }

    /** The plain classes of the API packages: everything but the two resources, enums and holders of constants. */
    private static List<Class<?>> apiClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        String apiPackage = ValueSemanticsTest.class.getPackageName();
        Path classes = Path.of(ModelServer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve(apiPackage.replace('.', '/')))) {
            for (Path file : files.filter(f ->
                            f.toString().endsWith(".class") && !f.toString().contains("$"))
                    .toList()) {
                String name = classes.relativize(file)
                        .toString()
                        .replace(".class", "")
                        .replace('/', '.');
                Class<?> type = Class.forName(name);
                if (!type.isEnum()
                        && !type.isInterface()
                        && !Modifier.isAbstract(type.getModifiers())
                        && type != ModelServer.class
                        && type != BenchmarkRun.class
                        && !instanceFields(type).isEmpty()) {
                    found.add(type);
                }
            }
        }
        return found;
    }
}
