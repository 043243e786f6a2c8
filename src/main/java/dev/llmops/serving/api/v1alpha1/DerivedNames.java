package dev.llmops.serving.api.v1alpha1;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Names of the objects the operator derives from a resource's name, made to fit the stricter rules of their kinds (a
 * Service name is a DNS-1035 label, a Job's name becomes a label value). A name that fits is used as it is, so ordinary
 * names never change; one that does not is cut short and made unique with a hash of the full name.
 */
public final class DerivedNames {

    /** The most characters of a label value, a DNS label and so of a Service name. */
    public static final int LABEL_MAX = 63;
    /** The most characters of a DNS-1123 subdomain, the name of most kinds. */
    public static final int SUBDOMAIN_MAX = 253;

    static final int HASH_LENGTH = 8;
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private DerivedNames() {}

    /**
     * {@code name + suffix} when it has at most {@code max} characters; else the name cut short (no trailing dash or
     * dot), a dash, the first characters of the name's SHA-256 and the suffix, {@code max} characters in all.
     */
    public static String fit(String name, String suffix, int max) {
        if (name.length() + suffix.length() <= max) {
            return name + suffix;
        }
        return hashed(name, name, suffix, max);
    }

    /**
     * A DNS-1035 label of at most {@code max} characters for a DNS-1123 subdomain name: the name itself when it is one;
     * else its dots turned into dashes, {@code letterPrefix} before a leading digit, and a hash of the name, so two
     * names that differ only there (a.b and a-b) never share it.
     */
    public static String dns1035Label(String name, String letterPrefix, int max) {
        if (name.length() <= max && DNS_1035_LABEL.matcher(name).matches()) {
            return name;
        }
        String readable = name.replace('.', '-');
        if (!Character.isLetter(readable.charAt(0))) {
            readable = letterPrefix + readable;
        }
        return hashed(readable, name, "", max);
    }

    private static String hashed(String readable, String name, String suffix, int max) {
        String hash = sha256(name).substring(0, HASH_LENGTH);
        int keep = Math.min(readable.length(), max - suffix.length() - HASH_LENGTH - 1);
        String prefix = readable.substring(0, keep).replaceAll("[-.]+$", "");
        return prefix + "-" + hash + suffix;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
