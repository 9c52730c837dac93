package io.jimflow.worker.codec;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The codec server's settings ({@code jimflow.codec-server.*}).
 *
 * @param enabled whether the worker serves {@code /codec/encode} and {@code /codec/decode}; off by
 *     default ({@code ./jimflow dev} turns it on for the UI on loopback)
 * @param allowedOrigins the web origins (the Temporal UI's) whose pages may call it; {@code
 *     http://localhost:8233}, the UI of {@code ./jimflow dev}, by default
 * @param accessToken when set, every request must carry {@code Authorization: Bearer <token>};
 *     required when {@code bindAddress} reaches beyond loopback
 * @param allowedHosts the host names requests may address (their {@code Host} header, without the
 *     port): {@code localhost}, {@code 127.0.0.1} and {@code [::1]} by default, so that a web page
 *     of another name that resolves to this host (DNS rebinding) is refused
 * @param bindAddress the local address besides loopback on which the codec server answers ({@code
 *     0.0.0.0} or {@code ::}: every address); unset, it answers only requests that arrive on a
 *     loopback address, whatever address the worker's port listens on
 */
@ConfigurationProperties("jimflow.codec-server")
public record CodecServerSettings(
    Boolean enabled,
    List<String> allowedOrigins,
    String accessToken,
    List<String> allowedHosts,
    String bindAddress) {

  public CodecServerSettings {
    allowedHosts =
        allowedHosts == null || allowedHosts.isEmpty()
            ? List.of("localhost", "127.0.0.1", "[::1]")
            : allowedHosts.stream().map(h -> h.strip().toLowerCase(java.util.Locale.ROOT)).toList();
    enabled = enabled != null && enabled;
    allowedOrigins =
        allowedOrigins == null ? List.of("http://localhost:8233") : List.copyOf(allowedOrigins);
    accessToken = accessToken == null || accessToken.isBlank() ? null : accessToken.strip();
    bindAddress = bindAddress == null || bindAddress.isBlank() ? null : bindAddress.strip();
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
        + ", bindAddress="
        + (bindAddress == null ? "loopback" : bindAddress)
        + "]";
  }
}
