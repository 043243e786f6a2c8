package dev.llmops.serving.api.contract;

import java.math.BigDecimal;

/**
 * How a number crosses the operator–runner boundary and how both sides print it: 2 rather than 2.0, 7.5 as 7.5,
 * never in exponent form; the operator writes flag values and the runner names its stages this way.
 */
public final class PlainNumber {

    private PlainNumber() {}

    public static String text(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
