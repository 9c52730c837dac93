package io.jimflow.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionSettingsTest {

  @Test
  void withoutAnythingSetItTargetsTheLocalDevServer() {
    ConnectionSettings settings = ConnectionSettings.fromEnvironment(Map.of());

    assertThat(settings.address()).isEqualTo("127.0.0.1:7233");
    assertThat(settings.namespace()).isEqualTo("default");
    assertThat(settings.tlsCert()).isNull();
    assertThat(settings.apiKey()).isNull();
  }

  @Test
  void theTemporalCliVariablesAreRead() {
    ConnectionSettings settings =
        ConnectionSettings.fromEnvironment(
            Map.of(
                "TEMPORAL_ADDRESS", "temporal.example:7233",
                "TEMPORAL_NAMESPACE", "hr",
                "TEMPORAL_TLS_CERT", "/etc/jimflow/client.pem",
                "TEMPORAL_TLS_KEY", "/etc/jimflow/client.key",
                "TEMPORAL_API_KEY", "secret"));

    assertThat(settings.address()).isEqualTo("temporal.example:7233");
    assertThat(settings.namespace()).isEqualTo("hr");
    assertThat(settings.tlsCert()).isEqualTo(Path.of("/etc/jimflow/client.pem"));
    assertThat(settings.tlsKey()).isEqualTo(Path.of("/etc/jimflow/client.key"));
    assertThat(settings.apiKey()).isEqualTo("secret");
  }

  @Test
  void theApiKeyNeverAppearsInTheTextForm() {
    assertThat(new ConnectionSettings("a:1", "ns", null, null, "secret").toString())
        .doesNotContain("secret");
  }

  @Test
  void aCertificateWithoutItsKeyIsRefused() {
    assertThatThrownBy(() -> new ConnectionSettings(null, null, Path.of("c.pem"), null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs its key");
  }
}
