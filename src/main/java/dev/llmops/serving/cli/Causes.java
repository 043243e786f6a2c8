package dev.llmops.serving.cli;

/** What a failure says in one line for a person: the innermost cause is where it says what actually went wrong. */
final class Causes {

    private Causes() {}

    static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
