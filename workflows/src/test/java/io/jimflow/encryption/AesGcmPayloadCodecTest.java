package io.jimflow.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.jimflow.common.JimflowDataConverter;
import io.jimflow.common.UnreadablePayloadException;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.failure.v1.Failure;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.Type;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AesGcmPayloadCodecTest {

  private static final String OLD = key("2026-05");
  private static final String NEW = key("2026-11");
  private static final String SECRET_ARGUMENT = "--target=ou=payroll,dc=example,dc=com";

  @Test
  void aPayloadComesBackAsItWasAndIsNotReadableOnTheWay() {
    AesGcmPayloadCodec codec = codec(NEW);
    Payload plain = json(Map.of("args", List.of(SECRET_ARGUMENT)));

    Payload encrypted = codec.encode(List.of(plain)).get(0);

    assertThat(encrypted.getMetadataMap().get("encoding").toStringUtf8())
        .isEqualTo("binary/encrypted");
    assertThat(encrypted.getMetadataMap().get("encryption-key-id").toStringUtf8())
        .isEqualTo("2026-11");
    assertThat(encrypted.toByteString().toStringUtf8()).doesNotContain("payroll", "json/plain");
    assertThat(codec.decode(List.of(encrypted))).containsExactly(plain);
  }

  @Test
  void theSamePayloadEncryptsDifferentlyEachTime() {
    AesGcmPayloadCodec codec = codec(NEW);
    Payload plain = json("same");

    assertThat(codec.encode(List.of(plain, plain)))
        .extracting(Payload::getData)
        .doesNotHaveDuplicates();
  }

  @Test
  void afterRotationTheNewKeyEncryptsAndPayloadsOfTheOldKeyStillDecrypt() {
    Payload plain = json("written before the rotation");
    Payload underOldKey = codec(OLD).encode(List.of(plain)).get(0);
    AesGcmPayloadCodec rotated = codec(NEW + "\n" + OLD);

    Payload underNewKey = rotated.encode(List.of(plain)).get(0);

    assertThat(underNewKey.getMetadataMap().get("encryption-key-id").toStringUtf8())
        .isEqualTo("2026-11");
    assertThat(rotated.decode(List.of(underOldKey, underNewKey))).containsExactly(plain, plain);
  }

  @Test
  void aPayloadOfAKeyTheKeyringLacksFailsNamingTheKeyAndTheSetting() {
    Payload underOldKey = codec(OLD).encode(List.of(json("x"))).get(0);

    assertThatThrownBy(() -> codec(NEW).decode(List.of(underOldKey)))
        .isInstanceOf(PayloadDecryptionException.class)
        .hasMessageContaining("encrypted with key '2026-05'")
        .hasMessageContaining("[2026-11]")
        .hasMessageContaining("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE");
  }

  @Test
  void aDifferentKeyUnderTheSameIdIsDetected() {
    Payload encrypted = codec(NEW).encode(List.of(json("x"))).get(0);

    assertThatThrownBy(() -> codec(key("2026-11")).decode(List.of(encrypted)))
        .isInstanceOf(PayloadDecryptionException.class)
        .hasMessageContaining("fails its integrity check");
  }

  @Test
  void anAlteredCiphertextIsDetected() {
    AesGcmPayloadCodec codec = codec(NEW);
    Payload encrypted = codec.encode(List.of(json("pay 10 EUR"))).get(0);
    byte[] data = encrypted.getData().toByteArray();
    data[data.length / 2] ^= 1;
    Payload altered = encrypted.toBuilder().setData(ByteString.copyFrom(data)).build();

    assertThatThrownBy(() -> codec.decode(List.of(altered)))
        .isInstanceOf(PayloadDecryptionException.class)
        .hasMessageContaining("fails its integrity check: it was altered");
  }

  @Test
  void aSwappedKeyIdIsDetected() {
    AesGcmPayloadCodec both = codec(NEW + "," + OLD);
    Payload encrypted = both.encode(List.of(json("x"))).get(0);
    Payload relabelled =
        encrypted.toBuilder()
            .putMetadata("encryption-key-id", ByteString.copyFromUtf8("2026-05"))
            .build();

    assertThatThrownBy(() -> both.decode(List.of(relabelled)))
        .isInstanceOf(PayloadDecryptionException.class)
        .hasMessageContaining("fails its integrity check");
  }

  @Test
  void payloadsWrittenBeforeEncryptionWasTurnedOnPassThrough() {
    Payload plain = json("an old history");

    assertThat(codec(NEW).decode(List.of(plain))).containsExactly(plain);
  }

  @Test
  void theDataConverterEncryptsValuesAndFailureMessagesAndStackTraces() {
    DataConverter converter = PayloadEncryption.with(keyring(NEW)).dataConverter();
    DataConverter plainReader = JimflowDataConverter.create();

    Payload value = converter.toPayload(SECRET_ARGUMENT).orElseThrow();
    Failure failure =
        converter.exceptionToFailure(
            ApplicationFailure.newFailure("cannot bind as " + SECRET_ARGUMENT, "LdapError"));

    assertThat(value.toByteString().toStringUtf8()).doesNotContain("payroll");
    assertThat(failure.toByteString().toStringUtf8()).doesNotContain("payroll");
    assertThat(converter.fromPayload(value, String.class, String.class)).isEqualTo(SECRET_ARGUMENT);
    assertThat(converter.failureToException(failure))
        .hasMessageContaining("cannot bind as " + SECRET_ARGUMENT);
    assertThat(plainReader.failureToException(failure).getMessage()).doesNotContain("payroll");
  }

  @Test
  void anArgumentUnderAKeyTheWorkerLacksIsUnreadableNamingTheKey() {
    Payload value = PayloadEncryption.with(keyring(OLD)).dataConverter().toPayload("x").get();
    DataConverter worker = PayloadEncryption.with(keyring(NEW)).dataConverter();

    // Unreadable like a malformed argument: the signal alone is dropped, the update rejected, a
    // start fails its execution naming the key - no workflow task fails in a loop.
    assertThatThrownBy(
            () ->
                worker.fromPayloads(
                    Optional.of(Payloads.newBuilder().addPayloads(value).build()),
                    new Class<?>[] {String.class},
                    new Type[] {String.class}))
        .isExactlyInstanceOf(UnreadablePayloadException.class)
        .hasMessageContaining("key '2026-05'");
  }

  @Test
  void aWorkerWithKeysRefusesArgumentsThatAreNotEncryptedButReadsItsOwn() {
    Payload plain = PayloadEncryption.off().dataConverter().toPayload("forged").get();
    DataConverter worker = PayloadEncryption.with(keyring(NEW)).workerDataConverter();
    Payload own = worker.toPayload("own").get();

    assertThatThrownBy(
            () ->
                worker.fromPayloads(
                    Optional.of(Payloads.newBuilder().addPayloads(plain).build()),
                    new Class<?>[] {String.class},
                    new Type[] {String.class}))
        .isExactlyInstanceOf(UnreadablePayloadException.class)
        .hasMessageContaining("refused its input: it is not encrypted");
    assertThat(
            worker.fromPayloads(
                Optional.of(Payloads.newBuilder().addPayloads(own).build()),
                new Class<?>[] {String.class},
                new Type[] {String.class}))
        .containsExactly("own");
    assertThat(
            PayloadEncryption.with(keyring(NEW))
                .dataConverter()
                .fromPayload(plain, String.class, String.class))
        .as("the CLI and codec server still read what was written before encryption")
        .isEqualTo("forged");
  }

  @Test
  void withoutKeysTheConverterWritesWhatTheDefaultConverterWrites() {
    DataConverter converter = PayloadEncryption.off().dataConverter();
    RuntimeException error = ApplicationFailure.newFailure("plain message", "X");

    assertThat(converter.toPayload("plain"))
        .isEqualTo(DefaultDataConverter.STANDARD_INSTANCE.toPayload("plain"));
    assertThat(converter.exceptionToFailure(error).getMessage()).isEqualTo("plain message");
  }

  @Test
  void withoutKeysAnEncryptedPayloadSaysWhichSettingIsMissing() {
    Payload encrypted = codec(NEW).encode(List.of(json("x"))).get(0);
    DataConverter withoutKeys = PayloadEncryption.off().dataConverter();

    assertThatThrownBy(() -> withoutKeys.fromPayload(encrypted, String.class, String.class))
        .isInstanceOf(PayloadDecryptionException.class)
        .hasMessage(
            "a payload is encrypted with key '2026-11', but this process has no payload keys;"
                + " set JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE (or JIMFLOW_PAYLOAD_ENCRYPTION_KEYS)"
                + " as for the workers");
  }

  private static AesGcmPayloadCodec codec(String keys) {
    return new AesGcmPayloadCodec(keyring(keys));
  }

  private static PayloadKeyring keyring(String keys) {
    return PayloadKeyring.parse(keys, "test keys");
  }

  private static String key(String id) {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return id + ":" + Base64.getEncoder().encodeToString(bytes);
  }

  private static Payload json(Object value) {
    return DefaultDataConverter.STANDARD_INSTANCE.toPayload(value).orElseThrow();
  }
}
