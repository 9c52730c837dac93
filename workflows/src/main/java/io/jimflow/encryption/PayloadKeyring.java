package io.jimflow.encryption;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES keys that encrypt and decrypt Temporal payloads: the first key encrypts, every key
 * decrypts, so keys rotate by adding a new key on top and removing an old one only once no history
 * still needs it.
 *
 * <p>Written one key per line (or separated by commas) as {@code <key id>:<base64 of 16, 24 or 32
 * random bytes>}, e.g. {@code 2026-11:q3Jm…=}; blank lines and what follows a {@code #} are
 * ignored. A key id is letters, digits, {@code .}, {@code _} and {@code -}; it is stored beside
 * each payload in clear text, so it names a key but never reveals it.
 */
public final class PayloadKeyring {

  private static final String ID = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

  private final Map<String, SecretKey> keys;
  private final String current;

  private PayloadKeyring(Map<String, SecretKey> keys) {
    this.keys = keys;
    this.current = keys.keySet().iterator().next();
  }

  /**
   * Reads a keyring written as described above.
   *
   * @param source where the text came from, named in errors (a file, an environment variable)
   * @throws PayloadKeysException naming the source, the line and what is wrong; never a key
   */
  public static PayloadKeyring parse(String text, String source) {
    Map<String, SecretKey> keys = new LinkedHashMap<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      int comment = lines[i].indexOf('#');
      String line = comment < 0 ? lines[i] : lines[i].substring(0, comment);
      for (String entry : line.split(",")) {
        String trimmed = entry.strip();
        if (trimmed.isEmpty()) {
          continue;
        }
        String where = source + (lines.length > 1 ? ", line " + (i + 1) : "");
        int colon = trimmed.indexOf(':');
        if (colon < 0) {
          throw new PayloadKeysException(
              where + ": expected <key id>:<base64 key>, e.g. 2026-11:$(openssl rand -base64 32)");
        }
        String id = trimmed.substring(0, colon).strip();
        if (!id.matches(ID)) {
          throw new PayloadKeysException(
              where
                  + ": key id '"
                  + id
                  + "' is not valid (letters, digits, '.', '_' and '-', at most 64)");
        }
        byte[] bytes;
        try {
          bytes = Base64.getDecoder().decode(trimmed.substring(colon + 1).strip());
        } catch (IllegalArgumentException e) {
          throw new PayloadKeysException(where + ": key '" + id + "' is not valid base64");
        }
        if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
          throw new PayloadKeysException(
              where
                  + ": key '"
                  + id
                  + "' has "
                  + bytes.length
                  + " bytes; AES needs 16, 24 or 32 (openssl rand -base64 32)");
        }
        if (keys.putIfAbsent(id, new SecretKeySpec(bytes, "AES")) != null) {
          throw new PayloadKeysException(where + ": key id '" + id + "' appears twice");
        }
      }
    }
    if (keys.isEmpty()) {
      throw new PayloadKeysException(source + ": no key in it");
    }
    return new PayloadKeyring(keys);
  }

  /** Reads a keyring file. */
  public static PayloadKeyring load(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new PayloadKeysException("cannot read the payload keys file " + file + " (" + e + ")");
    }
  }

  /** The id of the key that encrypts. */
  public String currentId() {
    return current;
  }

  SecretKey currentKey() {
    return keys.get(current);
  }

  Optional<SecretKey> key(String id) {
    return Optional.ofNullable(keys.get(id));
  }

  /** Every key id, the current one first. */
  public List<String> ids() {
    return new ArrayList<>(keys.keySet());
  }

  @Override
  public String toString() {
    // Never print a key.
    return "PayloadKeyring" + ids();
  }
}
