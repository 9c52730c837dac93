package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.client.JimflowClient;
import io.jimflow.client.ScheduleSummary;
import io.jimflow.maintenance.MaintenanceKind;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.deploy.BuiltInSchedules;
import io.jimflow.schedule.deploy.ScheduleReconciler;
import io.jimflow.schedule.deploy.TemporalScheduleStore;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.MaintenanceRuns.MaintenanceRun;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The built-in housekeeping schedule on the real dev server: {@code schedules apply} of a file
 * without it deploys it, it starts the housekeeping workflow on a real worker, and that deletes an
 * MVO whose grace period has passed, with a run record naming the schedule.
 */
@ExtendWith(TemporalDevServerExtension.class)
class HousekeepingScheduleIT {

  @Test
  void theBuiltInHousekeepingScheduleDeletesAnMvoWhoseGracePeriodHasPassed(E2eEnvironment env)
      throws Exception {
    E2eEnvironment.TestStore storeOfTest = E2eEnvironment.newStore();
    // Its own namespace: no other test's worker (with another store) may take the housekeeping run.
    String namespace = env.newNamespace("housekeeping");
    ScheduleClient schedules =
        ScheduleClient.newInstance(
            env.stubs(), ScheduleClientOptions.newBuilder().setNamespace(namespace).build());
    WorkerProcess worker =
        env.startWorker("housekeeping", withNamespace(storeOfTest.environment(), namespace));
    ScheduleReconciler reconciler =
        ScheduleReconciler.withBuiltIns(new TemporalScheduleStore(schedules));
    try (Store store =
        Store.open(
            new StoreSettings(
                storeOfTest.url(),
                storeOfTest.schema().user(),
                storeOfTest.schema().password(),
                2))) {
      Metaverse metaverse = new Metaverse(Clock.systemUTC(), Map.of());
      store.inTransaction(
          c -> {
            metaverse.insert(
                c,
                List.of(
                    new MvoRow(
                        "gone-1",
                        "person",
                        Map.of("employeeId", "1"),
                        Instant.now().minusSeconds(5)),
                    new MvoRow(
                        "kept-1",
                        "person",
                        Map.of("employeeId", "2"),
                        Instant.now().plus(Duration.ofDays(1)))));
            return null;
          });

      reconciler.apply(List.of());
      // Schedule listings come from visibility, which lags a moment behind a create.
      JimflowClient client = new JimflowClient(env.client(namespace), schedules);
      List<ScheduleSummary> listed = client.schedules().list();
      long listDeadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (listed.stream().filter(ScheduleSummary::builtIn).count() < 2
          && System.nanoTime() < listDeadline) {
        Thread.sleep(250);
        listed = client.schedules().list();
      }
      assertThat(listed)
          .filteredOn(ScheduleSummary::builtIn)
          .extracting(ScheduleSummary::id)
          .containsExactlyInAnyOrder(
              BuiltInSchedules.HOUSEKEEPING, BuiltInSchedules.HISTORY_RETENTION);
      assertThat(listed)
          .filteredOn(s -> s.id().equals(BuiltInSchedules.HISTORY_RETENTION))
          .singleElement()
          .satisfies(s -> assertThat(s.trigger()).contains("30 2 * * *"));
      // The schedule fires every minute; trigger it now instead of waiting for the next minute.
      schedules.getHandle(BuiltInSchedules.HOUSEKEEPING).trigger();

      MaintenanceRuns runs = new MaintenanceRuns(Clock.systemUTC());
      Optional<MaintenanceRun> record = Optional.empty();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (record.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(500);
        record =
            store.inTransaction(c -> runs.list(c, MaintenanceKind.Housekeeping, 10)).stream()
                .filter(r -> r.endedAt() != null)
                .findFirst();
      }

      assertThat(record)
          .as("a housekeeping run record; worker log:\n%s", worker.logTail(40))
          .isPresent();
      assertThat(record.get().status()).isEqualTo("Complete");
      assertThat(record.get().totals()).containsEntry("mvosDeleted", 1L);
      assertThat(record.get().initiator().type()).isEqualTo(InitiatorType.Schedule);
      assertThat(record.get().initiator().id()).isEqualTo(BuiltInSchedules.HOUSEKEEPING);
      assertThat(record.get().workflowId()).startsWith(BuiltInSchedules.HOUSEKEEPING);
      Map<String, MvoRow> left =
          store.inTransaction(c -> metaverse.findByIds(c, List.of("gone-1", "kept-1")));
      assertThat(left).containsOnlyKeys("kept-1");
    } finally {
      for (String id : BuiltInSchedules.IDS) {
        try {
          schedules.getHandle(id).delete();
        } catch (RuntimeException alreadyGone) {
          // nothing to clean up
        }
      }
      worker.terminate(Duration.ofSeconds(30));
    }
  }

  private static Map<String, String> withNamespace(Map<String, String> env, String namespace) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("TEMPORAL_NAMESPACE", namespace);
    return all;
  }
}
