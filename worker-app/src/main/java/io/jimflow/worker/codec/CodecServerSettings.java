package io.jimflow.worker.codec;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The codec server's settings ({@code jimflow.codec-server.*}).
 *
 * @param enabled whether the worker serves {@code /codec/encode} and {@code /codec/decode}; on by
 *     default (with encryption off it hands payloads back unchanged)
 * @param allowedOrigins the web origins (the Temporal UI's) whose pages may call it; {@code
 *     http://localhost:8233}, the UI of {@code ./jimflow dev}, by default
 * @param accessToken when set, every request must carry {@code Authorization: Bearer <token>}
 * @param allowedHosts the host names requests may address (their {@code Host} header, without the
 *     port): {@code localhost}, {@code 127.0.0.1} and {@code [::1]} by default, so that a web page
 *     of another name that resolves to this host (DNS rebinding) is refused
 */
@ConfigurationProperties("jimflow.codec-server")
public record CodecServerSettings(
    Boolean enabled, List<String> allowedOrigins, String accessToken, List<String> allowedHosts) {

  public CodecServerSettings {
    allowedHosts =
        allowedHosts == null || allowedHosts.isEmpty()
            ? List.of("localhost", "127.0.0.1", "[::1]")
            : allowedHosts.stream().map(h -> h.strip().toLowerCase(java.util.Locale.ROOT)).toList();
    enabled = enabled == null || enabled;
    allowedOrigins =
        allowedOrigins == null ? List.of("http://localhost:8233") : List.copyOf(allowedOrigins);
    accessToken = accessToken == null || accessToken.isBlank() ? null : accessToken.strip();
  }

  @Override
  public String toString() {
    // Never print the token.
    return "CodecServerSettings[enabled="
        + enabled
        + ", allowedOrigins="
        + allowedOrigins
        + ", accessToken="
        + (accessToken == null ? "none" : "set")
        + ", allowedHosts="
        + allowedHosts
        + "]";
  }
}
