package io.jimflow.schedule.activities;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which webhook a notification goes to: the worker's own ({@code
 * jimflow.notifications.webhook-url}) or a schedule's, and only then if the worker allows it: a
 * schedule's URL arrives in a payload, which anyone who may start a workflow can write, so it must
 * match one of the worker's {@code jimflow.notifications.allowed-urls} (same scheme, host and port;
 * its path below the allowed one's). URLs are resolved (secret references) before they come here.
 */
public final class WebhookTargets {

  private final URI defaultUrl;
  private final List<URI> allowed;

  /**
   * @param defaultUrl the worker's webhook; null or blank for none
   * @param allowed the URLs (prefixes) a schedule's own webhook may have
   * @throws IllegalArgumentException naming the setting whose URL is not an http(s) URL
   */
  public WebhookTargets(String defaultUrl, List<String> allowed) {
    this.defaultUrl =
        defaultUrl == null || defaultUrl.isBlank()
            ? null
            : parse(defaultUrl)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "jimflow.notifications.webhook-url is not an http(s) URL"));
    this.allowed =
        allowed.stream()
            .map(
                url ->
                    parse(url)
                        .orElseThrow(
                            () ->
                                new IllegalArgumentException(
                                    "jimflow.notifications.allowed-urls: '"
                                        + url
                                        + "' is not an http(s) URL")))
            .toList();
  }

  /**
   * Where a notification naming {@code scheduleUrl} (null for none) goes: empty when the worker has
   * no webhook and the schedule none either.
   *
   * @throws IllegalArgumentException when the schedule's URL is malformed or not allowed; the
   *     message never repeats the URL, which may have come from a secret
   */
  public Optional<URI> target(String scheduleUrl) {
    if (scheduleUrl == null || scheduleUrl.isBlank()) {
      return Optional.ofNullable(defaultUrl);
    }
    URI url =
        parse(scheduleUrl)
            .orElseThrow(
                () -> new IllegalArgumentException("the schedule's webhook is not an http(s) URL"));
    if (url.equals(defaultUrl) || allowed.stream().anyMatch(a -> below(url, a))) {
      return Optional.of(url);
    }
    throw new IllegalArgumentException(
        "the schedule's webhook is not among this worker's jimflow.notifications.allowed-urls");
  }

  private static boolean below(URI url, URI allowed) {
    String path =
        allowed.getRawPath() == null || allowed.getRawPath().isEmpty() ? "/" : allowed.getRawPath();
    String candidate =
        url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    return url.getScheme().equals(allowed.getScheme())
        && url.getHost().equals(allowed.getHost())
        && port(url) == port(allowed)
        && (candidate.equals(path) || candidate.startsWith(path.endsWith("/") ? path : path + "/"))
        && !candidate.contains("/../")
        && !candidate.endsWith("/..");
  }

  private static int port(URI url) {
    if (url.getPort() != -1) {
      return url.getPort();
    }
    return "https".equals(url.getScheme()) ? 443 : 80;
  }

  /** An absolute http(s) URL with a host and no user info, normalised; empty otherwise. */
  static Optional<URI> parse(String text) {
    try {
      URI url = new URI(text.strip()).normalize();
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")
          || url.getHost() == null
          || url.getRawUserInfo() != null) {
        return Optional.empty();
      }
      return Optional.of(
          new URI(
              scheme,
              null,
              url.getHost().toLowerCase(Locale.ROOT),
              url.getPort(),
              url.getPath(),
              url.getQuery(),
              null));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }
}
