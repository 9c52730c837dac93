package io.jimflow.encryption;

import com.google.protobuf.ByteString;
import io.jimflow.common.JimflowDataConverter;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.payload.codec.PayloadCodec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether jimflow encrypts what it stores in Temporal, and with which keys: one setting shared by
 * the worker, the CLI and {@code JimflowClient}, either a keys file ({@value #KEYS_FILE_VARIABLE},
 * e.g. a mounted Docker or Kubernetes secret) or the keys themselves ({@value #KEYS_VARIABLE}).
 * Neither set means no encryption. See {@link PayloadKeyring} for the format.
 *
 * <p>With keys, every payload (workflow and activity inputs and results, queries, signals,
 * heartbeats, memos, user metadata) is encrypted, and so are failure messages and stack traces.
 * Workflow ids, search attributes and a schedule's note stay readable: Temporal indexes them.
 */
public final class PayloadEncryption {

  /** The environment variable naming the keys file. */
  public static final String KEYS_FILE_VARIABLE = "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE";

  /** The environment variable holding the keys themselves. */
  public static final String KEYS_VARIABLE = "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS";

  private static final PayloadEncryption OFF = new PayloadEncryption(null);

  private final PayloadKeyring keyring;

  private PayloadEncryption(PayloadKeyring keyring) {
    this.keyring = keyring;
  }

  /** No encryption: payloads are stored as the default converter writes them. */
  public static PayloadEncryption off() {
    return OFF;
  }

  /** Encryption with these keys. */
  public static PayloadEncryption with(PayloadKeyring keyring) {
    return new PayloadEncryption(keyring);
  }

  /**
   * From the setting's two forms; blank means unset.
   *
   * @param keysFile the keys file, as {@value #KEYS_FILE_VARIABLE} names it
   * @param keys the keys themselves, as {@value #KEYS_VARIABLE} holds them
   * @throws PayloadKeysException when both are set, or the keys cannot be read
   */
  public static PayloadEncryption of(String keysFile, String keys) {
    boolean hasFile = keysFile != null && !keysFile.isBlank();
    boolean hasKeys = keys != null && !keys.isBlank();
    if (hasFile && hasKeys) {
      throw new PayloadKeysException(
          "set either " + KEYS_FILE_VARIABLE + " or " + KEYS_VARIABLE + ", not both");
    }
    if (hasFile) {
      return with(PayloadKeyring.load(Path.of(keysFile.strip())));
    }
    return hasKeys ? with(PayloadKeyring.parse(keys, KEYS_VARIABLE)) : off();
  }

  /** From this process's environment variables. */
  public static PayloadEncryption fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  static PayloadEncryption fromEnvironment(Map<String, String> env) {
    return of(env.get(KEYS_FILE_VARIABLE), env.get(KEYS_VARIABLE));
  }

  public boolean enabled() {
    return keyring != null;
  }

  public Optional<PayloadKeyring> keyring() {
    return Optional.ofNullable(keyring);
  }

  /**
   * The codecs payloads pass through: the encryption codec; when off, one that writes payloads
   * unchanged and refuses encrypted ones with a message saying which setting is missing.
   */
  public List<PayloadCodec> codecs() {
    return List.of(keyring == null ? new NoKeysCodec() : new AesGcmPayloadCodec(keyring));
  }

  /**
   * jimflow's data converter with this encryption: payloads, memos and failure attributes (message,
   * stack trace) encrypted when on; exactly the default converter's payloads when off.
   */
  public DataConverter dataConverter() {
    return JimflowDataConverter.create(codecs(), enabled());
  }

  /**
   * A worker's data converter: {@link #dataConverter()}, and when on, a workflow input, signal or
   * update argument that is not encrypted is refused as unreadable (the start fails its execution,
   * the signal is dropped, the update rejected): forging one would otherwise need no keys.
   */
  public DataConverter workerDataConverter() {
    return enabled()
        ? JimflowDataConverter.create(codecs(), true, AesGcmPayloadCodec::isEncrypted)
        : dataConverter();
  }

  /** Without keys: payloads pass unchanged, but an encrypted one says what is missing. */
  private static final class NoKeysCodec implements PayloadCodec {
    @Override
    public List<Payload> encode(List<Payload> payloads) {
      return payloads;
    }

    @Override
    public List<Payload> decode(List<Payload> payloads) {
      for (Payload payload : payloads) {
        if (AesGcmPayloadCodec.isEncrypted(payload)) {
          ByteString id = payload.getMetadataMap().get(AesGcmPayloadCodec.KEY_ID);
          throw new PayloadDecryptionException(
              "a payload is encrypted"
                  + (id == null ? "" : " with key '" + id.toStringUtf8() + "'")
                  + ", but this process has no payload keys; set "
                  + KEYS_FILE_VARIABLE
                  + " (or "
                  + KEYS_VARIABLE
                  + ") as for the workers");
        }
      }
      return payloads;
    }
  }

  /** One line for start-up logs; names key ids, never keys. */
  @Override
  public String toString() {
    return keyring == null
        ? "payload encryption off"
        : "payload encryption on (key '"
            + keyring.currentId()
            + "' encrypts; "
            + keyring.ids().size()
            + (keyring.ids().size() == 1 ? " key)" : " keys decrypt)");
  }
}
