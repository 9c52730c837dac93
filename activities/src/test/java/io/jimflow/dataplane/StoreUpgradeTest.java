package io.jimflow.dataplane;

import static io.jimflow.dataplane.RunProfileExecutorImplTest.CSV_SYSTEMS;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.HEADER;
import static io.jimflow.dataplane.RunProfileExecutorImplTest.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.SettableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written by an earlier release (its schema at the last migration that release shipped)
 * opens with this one: the new migrations apply to it, and the data imported before synchronises.
 */
class StoreUpgradeTest {

  /** The last migration of the release before the performance indexes. */
  private static final String EARLIER_RELEASE = "14.2";

  @TempDir Path dir;

  private final SettableClock clock = new SettableClock(Instant.parse("2026-03-01T02:00:00Z"));
  private final DataPlaneConfig config = new DataPlaneConfigLoader().load(CSV_SYSTEMS);
  private final ProfileRuns runs =
      new ProfileRuns("upgrade", new Initiator(InitiatorType.User, "ada", "Ada"));

  @Test
  void aStoreOfTheEarlierReleaseIsMigratedAndItsImportedObjectsSynchronise() throws Exception {
    StringBuilder rows = new StringBuilder();
    for (int i = 1; i <= 30; i++) {
      rows.append(person(i, "R&D", i % 3 == 0 ? "Contractor" : "Employee", "Active"));
    }
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("data/hr.csv"), HEADER + rows);

    try (Store upgraded = TestStores.atVersion(EARLIER_RELEASE)) {
      assertThat(execute(upgraded, "full-import").status().name()).isEqualTo("Complete");
      assertThat(ProfileRuns.count(upgraded, "select count(*) from cso")).isEqualTo(30);

      upgraded.migrate();

      assertThat(
              ProfileRuns.count(
                  upgraded,
                  "select count(*) from \"flyway_schema_history\" where \"version\" = '18.7'"
                      + " and \"success\""))
          .isEqualTo(1);
      RunProfileOutcome sync = execute(upgraded, "full-sync");

      assertThat(sync.status().name()).isEqualTo("Complete");
      assertThat(ProfileRuns.count(upgraded, "select count(*) from mvo")).isEqualTo(30);
      assertThat(
              ProfileRuns.count(
                  upgraded,
                  "select count(*) from pending_export where connected_system_id = 'directory'"))
          .isEqualTo(30);
      assertThat(
              ProfileRuns.count(
                  upgraded,
                  "select count(*) from pending_export where connected_system_id = 'badges'"))
          .isEqualTo(20);
    }
  }

  private RunProfileOutcome execute(Store store, String profile) {
    return new RunProfileExecutorImpl(store, config, dir, clock)
        .execute(runs.next("HR System", profile), new RecordingProgress());
  }
}
