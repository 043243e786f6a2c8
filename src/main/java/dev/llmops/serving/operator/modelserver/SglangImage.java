package dev.llmops.serving.operator.modelserver;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads from an SGLang image reference whether it ships CUDA 13, which decides the driver the node must run. */
public final class SglangImage {

    private static final String OFFICIAL_REPOSITORY = "lmsysorg/sglang";
    private static final Pattern RELEASE = Pattern.compile("^v(\\d+)\\.(\\d+)\\.(\\d+)");
    /** The first official release whose plain tags are CUDA 13 builds. */
    private static final int[] FIRST_CUDA13_RELEASE = {0, 5, 11};

    private SglangImage() {}

    /** True for tags naming cu13x, and for official releases from v0.5.11 on (and latest) that carry no CUDA suffix. */
    public static boolean isCuda13(String image) {
        String reference = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int lastSlash = reference.lastIndexOf('/');
        int tagStart = reference.lastIndexOf(':');
        String repository = tagStart > lastSlash ? reference.substring(0, tagStart) : reference;
        String tag = tagStart > lastSlash ? reference.substring(tagStart + 1) : "latest";
        if (tag.contains("cu13")) {
            return true;
        }
        if (tag.matches(".*cu1[0-2].*") || !repository.endsWith(OFFICIAL_REPOSITORY)) {
            return false;
        }
        if (tag.startsWith("latest")) {
            return true;
        }
        Matcher release = RELEASE.matcher(tag);
        if (!release.find()) {
            return false;
        }
        for (int i = 0; i < FIRST_CUDA13_RELEASE.length; i++) {
            int part = Integer.parseInt(release.group(i + 1));
            if (part != FIRST_CUDA13_RELEASE[i]) {
                return part > FIRST_CUDA13_RELEASE[i];
            }
        }
        return true;
    }
}
