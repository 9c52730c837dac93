package io.jimflow.schedule.activities;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.schedule.Notification;
import io.jimflow.schedule.NotificationActivities;
import io.jimflow.secrets.activities.SecretMasker;
import io.jimflow.secrets.activities.Secrets;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts notifications as JSON with a plain {@code text} field (what chat webhooks show) and the
 * structured fields beside it. A receiver that answers an error or not at all fails the attempt, so
 * that Temporal retries it; a webhook the worker does not allow is refused without retries.
 */
public final class NotificationActivitiesImpl implements NotificationActivities {

  private static final Logger log = LoggerFactory.getLogger(NotificationActivitiesImpl.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final String webhookUrl;
  private final List<String> allowedUrls;
  private final Secrets secrets;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param webhookUrl the worker's webhook ({@code jimflow.notifications.webhook-url}, may be a
   *     {@code ${secret:NAME}}); blank for none
   * @param allowedUrls what a schedule's own webhook may be ({@code
   *     jimflow.notifications.allowed-urls})
   */
  public NotificationActivitiesImpl(String webhookUrl, List<String> allowedUrls, Secrets secrets) {
    this.webhookUrl = webhookUrl == null ? "" : webhookUrl;
    this.allowedUrls = List.copyOf(allowedUrls);
    this.secrets = secrets;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    // A wrong setting shows at start, not with the first failure at night.
    targets(null);
  }

  @Override
  public void notify(Notification notification) {
    Optional<URI> target;
    try {
      target = targets(notification.webhookUrl());
    } catch (IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "notification for schedule '"
              + NotificationText.cut(notification.scheduleId(), NotificationText.NAME_LIMIT)
              + "' refused: "
              + e.getMessage(),
          REFUSED);
    }
    if (target.isEmpty()) {
      log.debug("no notifications webhook configured; not posting {}", notification.event());
      return;
    }
    SecretMasker masker = secrets.masker();
    HttpRequest request =
        HttpRequest.newBuilder(target.get())
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(masker.mask(body(notification))))
            .build();
    HttpResponse<Void> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw ApplicationFailure.newFailure(
          "the notifications webhook did not answer: " + e.getClass().getSimpleName(),
          "NotificationUndelivered");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApplicationFailure.newFailure("interrupted", "NotificationUndelivered");
    }
    if (response.statusCode() / 100 != 2) {
      throw ApplicationFailure.newFailure(
          "the notifications webhook answered HTTP " + response.statusCode(),
          "NotificationUndelivered");
    }
  }

  private Optional<URI> targets(String scheduleUrl) {
    return new WebhookTargets(resolve(webhookUrl), allowedUrls)
        .target(scheduleUrl == null ? null : resolve(scheduleUrl));
  }

  private String resolve(String url) {
    try {
      return secrets.resolve(url);
    } catch (ApplicationFailure e) {
      throw new IllegalArgumentException(e.getOriginalMessage());
    }
  }

  private String body(Notification n) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", NotificationText.of(n));
    body.put("event", n.event() == null ? null : n.event().name());
    body.put("schedule", NotificationText.cut(n.scheduleId(), NotificationText.NAME_LIMIT));
    body.put("scheduleName", NotificationText.cut(n.scheduleName(), NotificationText.NAME_LIMIT));
    body.put("execution", NotificationText.cut(n.executionId(), NotificationText.NAME_LIMIT));
    body.put("status", n.status() == null ? null : n.status().name());
    body.put(
        "steps",
        n.steps().stream()
            .limit(NotificationText.STEPS_LIMIT)
            .map(s -> NotificationText.cut(s, NotificationText.NAME_LIMIT))
            .toList());
    try {
      return new String(json.writeValueAsBytes(body), StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a notification", e);
    }
  }
}
