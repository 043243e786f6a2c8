package dev.llmops.serving.runner.transport;

/** The target did not complete one real request before the plan started: unreachable, or not inference-ready. */
public final class TargetNotReadyException extends Exception {

    private final transient RequestResult result;

    public TargetNotReadyException(RequestResult result) {
        super((FailureClass.CONNECT.equals(result.failureClass())
                        ? "the target is unreachable: "
                        : "the target is not inference-ready: ")
                + result.failureClass() + ": " + result.errorMessage());
        this.result = result;
    }

    public RequestResult result() {
        return result;
    }
}
