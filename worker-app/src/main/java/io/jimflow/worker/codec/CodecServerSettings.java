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
 */
@ConfigurationProperties("jimflow.codec-server")
public record CodecServerSettings(
    Boolean enabled, List<String> allowedOrigins, String accessToken) {

  public CodecServerSettings {
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
        + "]";
  }
}
