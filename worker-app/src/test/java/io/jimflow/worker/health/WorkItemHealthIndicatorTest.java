package io.jimflow.worker.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.workitem.activities.RunawayHandlers;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

class WorkItemHealthIndicatorTest {

  private final RunawayHandlers runaways = new RunawayHandlers();
  private final WorkItemHealthIndicator indicator = new WorkItemHealthIndicator(runaways);

  @Test
  void upWithoutRunawaysDownWhileOneRunsAndUpAgainOnceItEnds() throws Exception {
    assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

    CountDownLatch end = new CountDownLatch(1);
    Thread runaway =
        new Thread(
            () -> {
              try {
                end.await();
              } catch (InterruptedException ignoredLikeARunaway) {
                Thread.currentThread().interrupt();
              }
            },
            "work-item-line-count-big");
    runaway.start();
    runaways.add("big", "line-count", 2, "run", runaway);

    var down = indicator.health();
    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    assertThat(down.getDetails().get("runawayHandlers"))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
        .singleElement()
        .asString()
        .startsWith(
            "line-count big instance 2: run ignored its kill (thread work-item-line-count-big");

    end.countDown();
    runaway.join(30_000);
    assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
    assertThat(runaways.current()).isEqualTo(List.of());
  }
}
