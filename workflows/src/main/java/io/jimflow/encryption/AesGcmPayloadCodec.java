package io.jimflow.encryption;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.EncodingKeys;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Encrypts every payload with AES-GCM under the keyring's current key: the whole original payload
 * (its metadata, so its encoding, and its data) becomes the ciphertext of a payload whose clear
 * metadata holds only {@code encoding: binary/encrypted} and the key id.
 *
 * <p>Decoding picks the key by that id, so payloads written under older keys stay readable while
 * the keyring holds them. Payloads that are not encrypted pass through unchanged: histories written
 * before encryption was turned on still replay. The key id is authenticated with the ciphertext, so
 * altering either is detected.
 */
public final class AesGcmPayloadCodec implements PayloadCodec {

  /** The encoding of an encrypted payload. */
  public static final String ENCODING = "binary/encrypted";

  /** The metadata key naming the key a payload is encrypted with. */
  public static final String KEY_ID = "encryption-key-id";

  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final ByteString ENCODING_BYTES = ByteString.copyFromUtf8(ENCODING);
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  // Random 96-bit nonces: safe for about 2^32 payloads per key; rotate keys well before that.
  private static final SecureRandom RANDOM = new SecureRandom();

  private final PayloadKeyring keyring;

  public AesGcmPayloadCodec(PayloadKeyring keyring) {
    this.keyring = keyring;
  }

  @Override
  public List<Payload> encode(List<Payload> payloads) {
    List<Payload> encoded = new ArrayList<>(payloads.size());
    for (Payload payload : payloads) {
      encoded.add(encrypt(payload));
    }
    return encoded;
  }

  @Override
  public List<Payload> decode(List<Payload> payloads) {
    List<Payload> decoded = new ArrayList<>(payloads.size());
    for (Payload payload : payloads) {
      decoded.add(isEncrypted(payload) ? decrypt(payload) : payload);
    }
    return decoded;
  }

  /** Whether a payload was written by this codec (whatever its key). */
  public static boolean isEncrypted(Payload payload) {
    return ENCODING_BYTES.equals(payload.getMetadataMap().get(EncodingKeys.METADATA_ENCODING_KEY));
  }

  private Payload encrypt(Payload payload) {
    String keyId = keyring.currentId();
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    byte[] sealed;
    try {
      Cipher cipher = cipher(Cipher.ENCRYPT_MODE, keyring.currentKey(), nonce, keyId);
      sealed = cipher.doFinal(payload.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new PayloadCodecException("cannot encrypt a payload with key '" + keyId + "'", e);
    }
    return Payload.newBuilder()
        .putMetadata(EncodingKeys.METADATA_ENCODING_KEY, ENCODING_BYTES)
        .putMetadata(KEY_ID, ByteString.copyFromUtf8(keyId))
        .setData(
            ByteString.copyFrom(
                ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).flip()))
        .build();
  }

  private Payload decrypt(Payload payload) {
    ByteString id = payload.getMetadataMap().get(KEY_ID);
    if (id == null) {
      throw new PayloadDecryptionException(
          "an encrypted payload names no key (metadata " + KEY_ID + " is missing)");
    }
    String keyId = id.toStringUtf8();
    SecretKey key =
        keyring
            .key(keyId)
            .orElseThrow(
                () ->
                    new PayloadDecryptionException(
                        "a payload is encrypted with key '"
                            + keyId
                            + "', which is not among this process's payload keys "
                            + keyring.ids()
                            + "; add it to "
                            + PayloadEncryption.KEYS_FILE_VARIABLE
                            + " (or "
                            + PayloadEncryption.KEYS_VARIABLE
                            + ")"));
    byte[] data = payload.getData().toByteArray();
    if (data.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new PayloadDecryptionException(
          "a payload encrypted with key '" + keyId + "' is too short to be one (altered?)");
    }
    byte[] plain;
    try {
      Cipher cipher =
          cipher(Cipher.DECRYPT_MODE, key, java.util.Arrays.copyOf(data, NONCE_BYTES), keyId);
      plain = cipher.doFinal(data, NONCE_BYTES, data.length - NONCE_BYTES);
    } catch (AEADBadTagException e) {
      throw new PayloadDecryptionException(
          "a payload encrypted with key '"
              + keyId
              + "' fails its integrity check: it was altered, or this process's key '"
              + keyId
              + "' is not the one it was encrypted with");
    } catch (GeneralSecurityException e) {
      throw new PayloadDecryptionException(
          "cannot decrypt a payload with key '" + keyId + "' (" + e.getMessage() + ")");
    }
    try {
      return Payload.parseFrom(plain);
    } catch (InvalidProtocolBufferException e) {
      throw new PayloadDecryptionException(
          "a payload decrypted with key '" + keyId + "' is not a Temporal payload");
    }
  }

  private static Cipher cipher(int mode, SecretKey key, byte[] nonce, String keyId)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(CIPHER);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }
}
