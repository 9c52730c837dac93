package io.jimflow.client;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where and how to reach Temporal.
 *
 * @param address host:port of the frontend
 * @param tlsCert client certificate (PEM) for mTLS; requires {@code tlsKey}
 * @param tlsKey the certificate's private key (PKCS#8 PEM)
 * @param apiKey sent as a bearer token; implies TLS
 */
public record ConnectionSettings(
    String address, String namespace, Path tlsCert, Path tlsKey, String apiKey) {

  public static final String DEFAULT_ADDRESS = "127.0.0.1:7233";
  public static final String DEFAULT_NAMESPACE = "default";

  public ConnectionSettings {
    address = blankToNull(address) == null ? DEFAULT_ADDRESS : address.trim();
    namespace = blankToNull(namespace) == null ? DEFAULT_NAMESPACE : namespace.trim();
    apiKey = blankToNull(apiKey);
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("a TLS client certificate needs its key and vice versa");
    }
  }

  /** The local dev server's defaults. */
  public static ConnectionSettings local() {
    return new ConnectionSettings(null, null, null, null, null);
  }

  /**
   * Settings from the environment variables the Temporal CLI reads too: {@code TEMPORAL_ADDRESS},
   * {@code TEMPORAL_NAMESPACE}, {@code TEMPORAL_TLS_CERT}, {@code TEMPORAL_TLS_KEY}, {@code
   * TEMPORAL_API_KEY}.
   */
  public static ConnectionSettings fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  static ConnectionSettings fromEnvironment(Map<String, String> env) {
    return new ConnectionSettings(
        env.get("TEMPORAL_ADDRESS"),
        env.get("TEMPORAL_NAMESPACE"),
        path(env.get("TEMPORAL_TLS_CERT")),
        path(env.get("TEMPORAL_TLS_KEY")),
        env.get("TEMPORAL_API_KEY"));
  }

  @Override
  public String toString() {
    // Never print the API key.
    return "ConnectionSettings[address="
        + address
        + ", namespace="
        + namespace
        + ", tls="
        + (tlsCert != null || apiKey != null)
        + "]";
  }

  private static Path path(String value) {
    return blankToNull(value) == null ? null : Path.of(value.trim());
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
