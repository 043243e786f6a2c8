package dev.llmops.serving.runner.command;

import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converts a --url option, so a missing scheme or host is reported as what it is, not as a URI syntax error. */
final class ServerUrl implements ITypeConverter<URI> {

    @Override
    public URI convert(String value) {
        try {
            URI uri = new URI(value);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            throw notAServerUrl(value);
        }
        throw notAServerUrl(value);
    }

    private static TypeConversionException notAServerUrl(String value) {
        return new TypeConversionException(value + " is not a server URL: it needs http:// or https:// and a host,"
                + " e.g. http://10.0.0.5:30000");
    }
}
