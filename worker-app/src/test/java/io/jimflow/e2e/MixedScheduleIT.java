package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.client.ConnectionSettings;
import io.jimflow.client.JimflowClient;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.StepRecord;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.file.ScheduleDefinitions;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A large mixed schedule, as a JIM operator runs one: 14 steps in 9 groups over 4 connected systems
 * (imports, synchronisations, exports, confirming imports and programs) runs to Complete on a real
 * worker, and in every group whose steps the resource rules let run together at least two steps ran
 * at the same time, by the step timings the execution's record keeps; the group whose two
 * synchronisations share the metaverse ran them one after the other.
 */
@ExtendWith(TemporalDevServerExtension.class)
class MixedScheduleIT {

  private static final int PEOPLE = 4_000;

  /** The shipped CSV systems plus a fourth, a phone book that the people are exported to. */
  private static final String PHONE_BOOK =
      """
        - id: phones
          name: Phone Book
          connector: csv
          settings: {delimiter: ","}
          objectTypes:
            - name: entry
              anchor: employeeId
              attributes: [employeeId, displayName, mail, location]
          runProfiles:
            - {id: export, name: Export, runType: Export, file: data/phones.csv}
            - {id: full-import, name: Full Import, runType: FullImport, file: data/phones.csv, pageSize: 1000}

      """;

  private static final String PHONE_ENTRIES =
      """
          - id: phone-entries
            system: phones
            objectType: entry
            mvoType: person
            flows:
              - {from: employeeId, to: employeeId}
              - {from: displayName, to: displayName}
              - {from: email, to: mail}
              - {from: location, to: location}

      """;

  /**
   * Prepare runs 10 s: the import beside it first takes HR System's lock, which took 2.5 s on a
   * loaded two-core machine (the lock workflow's start), so the two still overlap by seconds.
   */
  private static final String SCHEDULE =
      """
      schedules:
        - id: mixed-fourteen
          name: Mixed Fourteen
          onStepFailure: stop
          steps:
            - {index: 0, name: HR Full Import, runProfile: {connectedSystem: HR System, runProfile: Full Import}}
            - {index: 0, name: Prepare, executable: {path: count.sh, args: ["20", "0.5"]}}
            - {index: 1, name: HR Full Sync, runProfile: {connectedSystem: HR System, runProfile: Full Synchronisation}}
            - {index: 2, name: Directory Export, runProfile: {connectedSystem: Directory, runProfile: Export}}
            - {index: 2, name: Badge Export, runProfile: {connectedSystem: Badge System, runProfile: Export}}
            - {index: 2, name: Phone Export, runProfile: {connectedSystem: Phone Book, runProfile: Export}}
            - {index: 3, name: Directory Confirming Import, runProfile: {connectedSystem: Directory, runProfile: Delta Import}}
            - {index: 3, name: Badge Confirming Import, runProfile: {connectedSystem: Badge System, runProfile: Delta Import}}
            - {index: 4, name: Phone Confirming Import, runProfile: {connectedSystem: Phone Book, runProfile: Full Import}}
            - {index: 5, name: HR Delta Import, runProfile: {connectedSystem: HR System, runProfile: Delta Import}}
            - {index: 6, name: HR Delta Sync, runProfile: {connectedSystem: HR System, runProfile: Delta Synchronisation}}
            - {index: 6, name: HR Full Sync Check, runProfile: {connectedSystem: HR System, runProfile: Full Synchronisation}}
            - {index: 7, name: Audit, executable: {path: count.sh, args: ["2", "0.1"]}}
            - {index: 8, name: Wrap Up, executable: {path: count.sh, args: ["2", "0.1"]}}
      """;

  /**
   * What each step holds while it runs, as the resource rules say: its connected system, and the
   * metaverse for a synchronisation; a program holds nothing.
   */
  private static final Map<String, Set<String>> RESOURCES =
      Map.ofEntries(
          Map.entry("HR Full Import", Set.of("HR System")),
          Map.entry("Prepare", Set.of()),
          Map.entry("HR Full Sync", Set.of("HR System", Resources.METAVERSE)),
          Map.entry("Directory Export", Set.of("Directory")),
          Map.entry("Badge Export", Set.of("Badge System")),
          Map.entry("Phone Export", Set.of("Phone Book")),
          Map.entry("Directory Confirming Import", Set.of("Directory")),
          Map.entry("Badge Confirming Import", Set.of("Badge System")),
          Map.entry("Phone Confirming Import", Set.of("Phone Book")),
          Map.entry("HR Delta Import", Set.of("HR System")),
          Map.entry("HR Delta Sync", Set.of("HR System", Resources.METAVERSE)),
          Map.entry("HR Full Sync Check", Set.of("HR System", Resources.METAVERSE)),
          Map.entry("Audit", Set.of()),
          Map.entry("Wrap Up", Set.of()));

  @Test
  void fourteenStepsInNineGroupsOverFourSystemsCompleteWithParallelGroupsRunningTogether(
      E2eEnvironment env) throws Exception {
    Path home = env.newDirectory("mixed");
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(30).write(PEOPLE, out, n -> {});
    }
    Path systems = home.resolve("connected-systems.yaml");
    String shipped = Files.readString(E2eEnvironment.csvConnectedSystems());
    assertThat(shipped).contains("\nsyncRules:\n", "  outbound:\n");
    Files.writeString(
        systems,
        shipped
            .replace("\nsyncRules:\n", "\n" + PHONE_BOOK + "syncRules:\n")
            .replace("  outbound:\n", "  outbound:\n" + PHONE_ENTRIES));
    Path schedules = home.resolve("schedules.yaml");
    Files.writeString(schedules, SCHEDULE);
    String namespace = env.newNamespace("mixed");
    WorkerProcess worker =
        env.startWorker(
            "mixed",
            E2eEnvironment.withOwnStore(
                Map.of(
                    "TEMPORAL_NAMESPACE",
                    namespace,
                    "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                    home.toString(),
                    "JIMFLOW_DATA_PLANE_CONFIG",
                    systems.toString())));

    ExecutionRecord record;
    try (JimflowClient client =
        JimflowClient.connect(new ConnectionSettings(env.target(), namespace, null, null, null))) {
      String id =
          client
              .executions()
              .start(ScheduleDefinitions.load(schedules).get(0), ManualExecutions.TESTER, false);
      ExecutionResult result = client.executions().awaitResult(id);
      assertThat(result.status()).as(result.message()).isEqualTo(ExecutionStatus.Complete);
      record = client.executions().stored(id);
    } finally {
      worker.terminate(Duration.ofSeconds(30));
    }

    assertThat(record.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(record.stepGroups()).isEqualTo(9);
    assertThat(record.steps()).hasSize(14);
    assertThat(record.steps())
        .extracting(StepRecord::status)
        .allMatch(s -> s == StepStatus.Complete || s == StepStatus.CompleteWithWarning);
    assertThat(
            record.steps().stream()
                .flatMap(s -> RESOURCES.get(s.name()).stream())
                .filter(r -> !r.equals(Resources.METAVERSE))
                .distinct())
        .containsExactlyInAnyOrder("HR System", "Directory", "Badge System", "Phone Book");
    assertThat(Files.readAllLines(home.resolve("data/phones.csv")))
        .as("the fourth system got the people")
        .hasSizeGreaterThan(PEOPLE / 2);

    Map<Integer, List<StepRecord>> groups = new TreeMap<>();
    record.steps().forEach(s -> groups.computeIfAbsent(s.index(), i -> new ArrayList<>()).add(s));
    assertThat(groups).hasSize(9);
    Map<Integer, String> mayOverlap = new LinkedHashMap<>();
    for (Map.Entry<Integer, List<StepRecord>> group : groups.entrySet()) {
      List<StepRecord[]> free = pairsHoldingNothingInCommon(group.getValue());
      if (!free.isEmpty()) {
        mayOverlap.put(group.getKey(), describe(group.getValue()));
        assertThat(free)
            .as("in group %d at least two steps ran at once: %s", group.getKey(), mayOverlap)
            .anyMatch(pair -> overlap(pair[0], pair[1]));
      } else if (group.getValue().size() > 1) {
        StepRecord a = group.getValue().get(0);
        StepRecord b = group.getValue().get(1);
        assertThat(overlap(a, b))
            .as(
                "the two synchronisations of group %d share the metaverse: %s",
                group.getKey(), describe(group.getValue()))
            .isFalse();
      }
    }
    assertThat(mayOverlap).as("the parallel groups").containsOnlyKeys(0, 2, 3);
  }

  /** Pairs of steps of one group whose resources are disjoint, so that they may run at once. */
  private static List<StepRecord[]> pairsHoldingNothingInCommon(List<StepRecord> group) {
    List<StepRecord[]> pairs = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      for (int j = i + 1; j < group.size(); j++) {
        Set<String> a = RESOURCES.get(group.get(i).name());
        Set<String> b = RESOURCES.get(group.get(j).name());
        if (a.stream().noneMatch(b::contains)) {
          pairs.add(new StepRecord[] {group.get(i), group.get(j)});
        }
      }
    }
    return pairs;
  }

  private static boolean overlap(StepRecord a, StepRecord b) {
    return a.startedAt().isBefore(b.endedAt()) && b.startedAt().isBefore(a.endedAt());
  }

  private static String describe(List<StepRecord> group) {
    return group.stream()
        .map(s -> s.name() + " " + s.startedAt() + " - " + s.endedAt())
        .toList()
        .toString();
  }
}
