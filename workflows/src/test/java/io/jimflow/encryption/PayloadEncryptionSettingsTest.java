package io.jimflow.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayloadEncryptionSettingsTest {

  private static final String KEY_32 = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
  private static final String KEY_16 = "MDEyMzQ1Njc4OWFiY2RlZg==";

  @TempDir Path dir;

  @Test
  void noSettingMeansNoEncryption() {
    PayloadEncryption encryption = PayloadEncryption.fromEnvironment(Map.of());

    assertThat(encryption.enabled()).isFalse();
    assertThat(encryption).hasToString("payload encryption off");
  }

  @Test
  void aKeysFileListsTheCurrentKeyFirstAndMayHoldComments() throws Exception {
    Path file = dir.resolve("payload-keys");
    Files.writeString(
        file, "# newest first\n2026-11:" + KEY_32 + "\n\n2026-05:" + KEY_16 + "  # retired\n");

    PayloadEncryption encryption =
        PayloadEncryption.fromEnvironment(
            Map.of("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE", file.toString()));

    assertThat(encryption.keyring().orElseThrow().ids()).containsExactly("2026-11", "2026-05");
    assertThat(encryption.toString())
        .isEqualTo("payload encryption on (key '2026-11' encrypts; 2 keys decrypt)")
        .doesNotContain(KEY_32);
  }

  @Test
  void keysInTheVariableAreSeparatedByCommas() {
    PayloadEncryption encryption =
        PayloadEncryption.fromEnvironment(
            Map.of("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS", "b:" + KEY_32 + ", a:" + KEY_16));

    assertThat(encryption.keyring().orElseThrow().ids()).containsExactly("b", "a");
  }

  @Test
  void aBadLineIsNamedWithoutShowingAnyKey() throws Exception {
    Path file = dir.resolve("payload-keys");
    Files.writeString(file, "2026-11:" + KEY_32 + "\n2026-05:" + KEY_32.substring(4) + "\n");

    assertThatThrownBy(() -> PayloadEncryption.of(file.toString(), null))
        .isInstanceOf(PayloadKeysException.class)
        .hasMessage(
            file
                + ", line 2: key '2026-05' has 29 bytes; AES needs 16, 24 or 32"
                + " (openssl rand -base64 32)");
  }

  @Test
  void malformedSettingsSayWhatIsExpected() {
    assertThatThrownBy(() -> PayloadEncryption.of(null, KEY_32))
        .hasMessageContaining("expected <key id>:<base64 key>");
    assertThatThrownBy(() -> PayloadEncryption.of(null, "a:" + KEY_32 + ",a:" + KEY_16))
        .hasMessageContaining("key id 'a' appears twice");
    assertThatThrownBy(() -> PayloadEncryption.of(null, "a:not base64!"))
        .hasMessageContaining("key 'a' is not valid base64");
    assertThatThrownBy(() -> PayloadEncryption.of(null, "# only a comment"))
        .hasMessageContaining("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS: no key in it");
    assertThatThrownBy(() -> PayloadEncryption.of("/nowhere/keys", null))
        .hasMessageContaining("cannot read the payload keys file /nowhere/keys");
    assertThatThrownBy(() -> PayloadEncryption.of("/some/file", "a:" + KEY_32))
        .hasMessageContaining("not both");
  }
}
