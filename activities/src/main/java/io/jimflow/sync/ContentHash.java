package io.jimflow.sync;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/** A stable SHA-256 of an object's attributes: equal attributes, equal hash, in any order. */
public final class ContentHash {

  private ContentHash() {}

  public static String of(Map<String, String> attributes) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
    for (Map.Entry<String, String> entry : new TreeMap<>(attributes).entrySet()) {
      // Lengths before values keep ("ab","c") and ("a","bc") apart.
      String key = entry.getKey();
      String value = entry.getValue() == null ? "" : entry.getValue();
      digest.update(
          (key.length() + ":" + key + value.length() + ":" + value)
              .getBytes(StandardCharsets.UTF_8));
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
