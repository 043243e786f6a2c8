package dev.llmops.serving.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The keys a record lives under and the URLs users give and read. */
class ArchiveLocationTest {

    @Test
    void aRecordLivesUnderPrefixNamespaceRunAndUid() {
        ArchiveLocation location = ArchiveLocation.of("s3://results/nightly/", Optional.empty(), "eu-west-1", false);

        assertThat(location.bucket()).isEqualTo("results");
        assertThat(location.recordKeys("ml", "kimi", "uid-1")).isEqualTo("nightly/ml/kimi/uid-1/");
        assertThat(location.runKeys("ml", "kimi")).isEqualTo("nightly/ml/kimi/");
        assertThat(location.keys(Optional.of("ml"))).isEqualTo("nightly/ml/");
        assertThat(location.keys(Optional.empty())).isEqualTo("nightly/");
        assertThat(location.url("nightly/ml/kimi/uid-1/")).isEqualTo("s3://results/nightly/ml/kimi/uid-1/");
        assertThat(location.keyOf("s3://results/nightly/ml/kimi/uid-1/")).contains("nightly/ml/kimi/uid-1/");
        assertThat(location.keyOf("s3://elsewhere/nightly/ml/kimi/uid-1/")).isEmpty();
    }

    @Test
    void aBucketWithoutPrefixKeepsRecordsAtItsRoot() {
        ArchiveLocation location = ArchiveLocation.of("s3://results", Optional.empty(), "us-east-1", true);

        assertThat(location.recordKeys("ml", "kimi", "uid-1")).isEqualTo("ml/kimi/uid-1/");
        assertThat(location.keys(Optional.empty())).isEmpty();
    }

    @Test
    void anythingButAnS3UrlIsRefused() {
        assertThatThrownBy(() -> ArchiveLocation.of("https://results/nightly", Optional.empty(), "us-east-1", false))
                .hasMessage("not an s3://BUCKET[/PREFIX] URL: https://results/nightly");
        assertThatThrownBy(() -> ArchiveLocation.of("s3://", Optional.empty(), "us-east-1", false))
                .hasMessageContaining("not an s3://BUCKET[/PREFIX] URL");
    }
}
