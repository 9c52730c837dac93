package io.jimflow.schedule.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookTargetsTest {

  private final WebhookTargets targets =
      new WebhookTargets(
          "https://chat.example.org/hooks/ops",
          List.of("https://chat.example.org/hooks/teams", "http://127.0.0.1:9000/"));

  @Test
  void aScheduleWithoutItsOwnWebhookUsesTheWorkersAndNoneIsNothing() {
    assertThat(targets.target(null)).contains(URI.create("https://chat.example.org/hooks/ops"));
    assertThat(new WebhookTargets("", List.of()).target(null)).isEmpty();
    assertThat(new WebhookTargets(null, List.of()).target("  ")).isEmpty();
  }

  @Test
  void aSchedulesWebhookBelowAnAllowedUrlIsUsed() {
    record Case(String url, String expected) {}
    for (Case c :
        List.of(
            new Case(
                "https://chat.example.org/hooks/teams", "https://chat.example.org/hooks/teams"),
            new Case(
                "https://CHAT.example.org/hooks/teams/hr",
                "https://chat.example.org/hooks/teams/hr"),
            new Case(
                "https://chat.example.org:443/hooks/teams/x?y=1",
                "https://chat.example.org:443/hooks/teams/x?y=1"),
            new Case("http://127.0.0.1:9000/anything", "http://127.0.0.1:9000/anything"),
            new Case("https://chat.example.org/hooks/ops", "https://chat.example.org/hooks/ops"))) {
      assertThat(targets.target(c.url()))
          .as(c.url())
          .isEqualTo(Optional.of(URI.create(c.expected())));
    }
  }

  @Test
  void hostileWebhooksFromAPayloadAreRefused() {
    for (String hostile :
        List.of(
            "https://evil.example.com/hooks/teams",
            "https://chat.example.org.evil.example.com/hooks/teams",
            "https://chat.example.org@evil.example.com/hooks/teams",
            "https://user:pw@chat.example.org/hooks/teams",
            "https://chat.example.org/hooks/teamsX",
            "https://chat.example.org/hooks/teams/../../admin",
            "https://chat.example.org:8443/hooks/teams",
            "http://chat.example.org/hooks/teams",
            "http://127.0.0.1:9001/",
            "http://169.254.169.254/latest/meta-data/",
            "file:///etc/passwd",
            "ftp://chat.example.org/hooks/teams",
            "javascript:alert(1)",
            "not a url",
            "//chat.example.org/hooks/teams")) {
      assertThatThrownBy(() -> targets.target(hostile))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class)
          .message()
          .doesNotContain(hostile);
    }
  }

  @Test
  void aMalformedWorkerSettingStopsTheWorkerNamingIt() {
    assertThatThrownBy(() -> new WebhookTargets("ftp://x", List.of()))
        .hasMessageContaining("jimflow.notifications.webhook-url");
    assertThatThrownBy(() -> new WebhookTargets(null, List.of("nope")))
        .hasMessageContaining("jimflow.notifications.allowed-urls");
  }
}
