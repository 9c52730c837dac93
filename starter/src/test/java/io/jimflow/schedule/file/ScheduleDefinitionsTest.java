package io.jimflow.schedule.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.jimflow.config.tree.ConfigException;
import io.jimflow.config.tree.ConfigProblem;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScheduleDefinitionsTest {

  private static final String FILE = "config/schedules.yaml";

  @Test
  void aCompleteScheduleIsReadWithEveryField() {
    List<ScheduleDefinition> definitions =
        ScheduleDefinitions.parse(
            """
            schedules:
              - id: nightly
                name: Nightly HR Sync
                description: the nightly run
                enabled: false
                trigger:
                  cron: ["0 2 * * *"]
                  at: {days: [MON, friday], times: ["02:00", "14:30"]}
                  every: {minutes: 30, from: "08:00", to: "18:00", days: [SAT]}
                  timezone: Europe/London
                onStepFailure: continue
                overlap: buffer-one
                catchupWindow: PT1H
                steps:
                  - index: 0
                    name: Import
                    runProfile: {connectedSystem: HR, runProfile: Full Import}
                    continueOnFailure: true
                    timeout: PT2H
                    attemptTimeout: PT30M
                    retry: {maximumAttempts: 5, initialInterval: PT2S, backoffCoefficient: 1.5}
                    heartbeatTimeout: PT1M
                  - index: 1
                    name: Script
                    executable:
                      path: tools/count.sh
                      args: ["3", "0.1"]
                      workingDirectory: tools
                      env: {MODE: fast}
            """,
            FILE);

    assertThat(definitions).hasSize(1);
    ScheduleDefinition d = definitions.get(0);
    assertThat(d.id()).isEqualTo("nightly");
    assertThat(d.name()).isEqualTo("Nightly HR Sync");
    assertThat(d.description()).isEqualTo("the nightly run");
    assertThat(d.enabled()).isFalse();
    assertThat(d.onStepFailure()).isEqualTo(FailurePolicy.CONTINUE);
    assertThat(d.overlap()).isEqualTo(OverlapPolicy.BUFFER_ONE);
    assertThat(d.catchupWindow()).isEqualTo(Duration.ofHours(1));
    assertThat(d.trigger().cron()).containsExactly("0 2 * * *");
    assertThat(d.trigger().at().days()).containsExactly(DayOfWeek.MONDAY, DayOfWeek.FRIDAY);
    assertThat(d.trigger().at().times()).containsExactly(LocalTime.of(2, 0), LocalTime.of(14, 30));
    assertThat(d.trigger().every().minutes()).isEqualTo(30);
    assertThat(d.trigger().every().from()).isEqualTo(LocalTime.of(8, 0));
    assertThat(d.trigger().every().to()).isEqualTo(LocalTime.of(18, 0));
    assertThat(d.trigger().every().days()).containsExactly(DayOfWeek.SATURDAY);
    assertThat(d.trigger().timezone()).isEqualTo("Europe/London");
    StepDefinition importStep = d.steps().get(0);
    assertThat(importStep.runProfile())
        .isEqualTo(new StepDefinition.RunProfileStep("HR", "Full Import"));
    assertThat(importStep.continueOnFailure()).isTrue();
    assertThat(importStep.timeout()).isEqualTo(Duration.ofHours(2));
    assertThat(importStep.attemptTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(importStep.retry())
        .isEqualTo(new StepDefinition.RetrySettings(5, Duration.ofSeconds(2), 1.5));
    assertThat(importStep.heartbeatTimeout()).isEqualTo(Duration.ofMinutes(1));
    StepDefinition script = d.steps().get(1);
    assertThat(script.executable())
        .isEqualTo(
            new StepDefinition.ExecutableStep(
                "tools/count.sh", List.of("3", "0.1"), "tools", java.util.Map.of("MODE", "fast")));
    assertThat(script.continueOnFailure()).isNull();
  }

  @Test
  void absentOptionalKeysTakeTheirDefaults() {
    ScheduleDefinition d =
        ScheduleDefinitions.parse(
                """
                schedules:
                  - id: manual-only
                    steps:
                      - {index: 0, name: A, executable: {path: a.sh}}
                """,
                FILE)
            .get(0);

    assertThat(d.name()).isEqualTo("manual-only");
    assertThat(d.enabled()).isTrue();
    assertThat(d.trigger()).isNull();
    assertThat(d.onStepFailure()).isEqualTo(FailurePolicy.STOP);
    assertThat(d.overlap()).isEqualTo(OverlapPolicy.SKIP);
    assertThat(d.catchupWindow()).isNull();
  }

  @Test
  void aSchedulesOwnWebhookIsReadAndAnythingButAnHttpUrlOrSecretIsRefusedWithItsLine() {
    ScheduleDefinition d =
        ScheduleDefinitions.parse(
                """
                schedules:
                  - id: nightly
                    notifications: {webhookUrl: "https://chat.example.org/hooks/identity"}
                    steps:
                      - {index: 0, name: A, executable: {path: a.sh}}
                  - id: secret
                    notifications: {webhookUrl: "${secret:team-hook}"}
                    steps:
                      - {index: 0, name: A, executable: {path: a.sh}}
                """,
                FILE)
            .get(0);
    assertThat(d.notificationUrl()).isEqualTo("https://chat.example.org/hooks/identity");

    assertThat(
            problems(
                """
                schedules:
                  - id: nightly
                    notifications: {webhookUrl: "file:///etc/passwd", channel: ops}
                    steps:
                      - {index: 0, name: A, executable: {path: a.sh}}
                """))
        .anySatisfy(p -> assertThat(p).contains(".yaml:3:").contains("not an http(s) URL"))
        .anySatisfy(p -> assertThat(p).contains("channel"));
  }

  @Test
  void theShippedExampleFileIsValid() {
    List<ScheduleDefinition> definitions =
        ScheduleDefinitions.load(Path.of("..", "config", "schedules.yaml"));

    assertThat(definitions)
        .extracting(ScheduleDefinition::name)
        .containsExactly("Nightly HR Sync", "Hourly HR Delta Sync", "Script Demo");
    ScheduleDefinition hr = definitions.get(0);
    assertThat(hr.steps()).extracting(StepDefinition::index).containsExactly(0, 1, 2, 2, 3, 3);
    assertThat(hr.steps()).allSatisfy(s -> assertThat(s.runProfile()).isNotNull());
    ScheduleDefinition delta = definitions.get(1);
    assertThat(delta.steps()).extracting(StepDefinition::index).containsExactly(0, 1, 2, 2, 3, 3);
    assertThat(delta.steps().get(0).runProfile().runProfile()).isEqualTo("Delta Import");
    ScheduleDefinition scripts = definitions.get(2);
    assertThat(scripts.steps()).allSatisfy(s -> assertThat(s.executable()).isNotNull());
    assertThat(scripts.steps()).anySatisfy(s -> assertThat(s.continueOnFailure()).isTrue());
    assertThat(scripts.steps())
        .extracting(s -> s.executable().path())
        .contains("count.sh", "fail.sh");
  }

  @Test
  void anUnknownKeyFarFromAnyKnownKeyListsTheKnownKeys() {
    assertThat(problems("schedules: []\ncolour: blue\n"))
        .containsExactly(FILE + ":2: colour: unknown key 'colour'; known keys: scope, schedules");
  }

  @Test
  void aSingleCronExpressionNeedNotBeAList() {
    ScheduleDefinition d =
        ScheduleDefinitions.parse(
                """
                schedules:
                  - id: a
                    trigger: {cron: "*/5 * * * *"}
                    steps: [{index: 0, name: A, executable: {path: a.sh}}]
                """,
                FILE)
            .get(0);

    assertThat(d.trigger().cron()).containsExactly("*/5 * * * *");
  }

  @Test
  void anAbbreviatedTimeZoneIsRejectedBecauseItsMeaningIsAmbiguous() {
    assertThat(
            problems(
                """
                schedules:
                  - id: a
                    trigger: {cron: "0 2 * * *", timezone: CET}
                    steps: [{index: 0, name: A, executable: {path: a.sh}}]
                """))
        .singleElement()
        .asString()
        .startsWith(FILE + ":3: schedules[0].trigger.timezone: 'CET' is not an IANA time zone");
  }

  @Test
  void resourceLimitsAreReadAndMustBePositive() {
    assertThat(
            ScheduleDefinitions.parse(
                    """
                    schedules:
                      - id: a
                        steps:
                          - index: 0
                            name: A
                            executable:
                              path: a.sh
                              limits: {cpuSeconds: 60, memoryMegabytes: 512, openFiles: 256}
                    """,
                    FILE)
                .get(0)
                .steps()
                .get(0)
                .executable()
                .limits())
        .isEqualTo(new StepDefinition.Limits(60L, 512L, 256));
    assertThat(
            problems(
                """
                schedules:
                  - id: a
                    steps:
                      - index: 0
                        name: A
                        executable:
                          path: a.sh
                          limits: {cpuSeconds: 0, memory: 5}
                """))
        .containsExactlyInAnyOrder(
            FILE
                + ":8: schedules[0].steps[0].executable.limits.cpuSeconds: must be at least 1 (got"
                + " 0)",
            FILE
                + ":8: schedules[0].steps[0].executable.limits.memory: unknown key 'memory'; known"
                + " keys: cpuSeconds, memoryMegabytes, openFiles");
  }

  @Test
  void aSecretReferenceIsKeptAsTheReferenceNotResolved() {
    List<ScheduleDefinition> definitions =
        ScheduleDefinitions.parse(
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    executable:
                      path: a.sh
                      env: {DB_PASSWORD: "${secret:db-password}"}
            """,
            FILE);

    assertThat(definitions.get(0).steps().get(0).executable().env())
        .containsEntry("DB_PASSWORD", "${secret:db-password}");
  }

  @Test
  void aYamlSyntaxErrorIsReportedWithItsLine() {
    assertThat(
            problems(
                """
                schedules:
                  - id: a
                    steps: [{index: 0, name: A
                  - id: b
                """))
        .singleElement()
        .asString()
        .startsWith(FILE + ":4: YAML syntax error: ");
  }

  @Test
  void aMissingFileIsReportedByName(@TempDir Path dir) {
    Path missing = dir.resolve("nope.yaml");

    assertThatThrownBy(() -> ScheduleDefinitions.load(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(missing + ": file not found");
  }

  @Test
  void aFileOnDiskIsNamedAsTheUserGaveIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("schedules.yaml");
    Files.writeString(file, "schedules:\n  - id: a\n    steps: []\n");

    assertThatThrownBy(() -> ScheduleDefinitions.load(file))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::format)
                    .containsExactly(
                        file + ":3: schedules[0].steps: a schedule needs at least one step"));
  }

  @Test
  void runProfileStepsMustNameSystemsAndProfilesOfTheConnectedSystemsFileBesideIt(@TempDir Path dir)
      throws Exception {
    Files.writeString(
        dir.resolve("connected-systems.yaml"),
        """
        connectedSystems:
          - id: hr
            name: HR System
            runProfiles:
              - {id: full-import, name: Full Import}
        """);
    Path file = dir.resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        schedules:
          - id: a
            steps:
              - {index: 0, name: By name, runProfile: {connectedSystem: HR System, runProfile: Full Import}}
              - {index: 1, name: By id, runProfile: {connectedSystem: hr, runProfile: full-import}}
              - {index: 2, name: Typo, runProfile: {connectedSystem: hr, runProfile: Full Imprt}}
              - {index: 3, name: Unknown, runProfile: {connectedSystem: ldap, runProfile: Export}}
        """);

    assertThatThrownBy(() -> ScheduleDefinitions.load(file))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::format)
                    .containsExactly(
                        file
                            + ":6: schedules[0].steps[2].runProfile.connectedSystem: connected"
                            + " system 'hr' has no run profile 'Full Imprt' in"
                            + " connected-systems.yaml (known: full-import, Full Import)",
                        file
                            + ":7: schedules[0].steps[3].runProfile.connectedSystem: connected"
                            + " system 'ldap' is not in connected-systems.yaml (known: hr, HR"
                            + " System)"));
  }

  @Test
  void sqlScriptStepsMustNameConnectionsAndScriptsOfTheSqlScriptsFileBesideIt(@TempDir Path dir)
      throws Exception {
    Files.createDirectories(dir.resolve("scripts/sql/nightly"));
    Files.writeString(dir.resolve("scripts/sql/nightly/purge.sql"), "delete from t;");
    Files.writeString(dir.resolve("outside.sql"), "delete from t;");
    Files.createSymbolicLink(
        dir.resolve("scripts/sql/escape.sql"), dir.resolve("outside.sql").toAbsolutePath());
    Path config = Files.createDirectories(dir.resolve("config"));
    Files.writeString(
        config.resolve("sql-scripts.yaml"),
        """
        root: ../scripts/sql
        connections:
          - name: reporting
          - name: warehouse
        """);
    Path file = config.resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        schedules:
          - id: a
            steps:
              - {index: 0, name: Fine, sqlScript: {connection: reporting, path: nightly/purge.sql}}
              - {index: 1, name: Unknown, sqlScript: {connection: crm, path: nightly/purge.sql}}
              - {index: 2, name: Missing, sqlScript: {connection: warehouse, path: nightly/prune.sql}}
              - {index: 3, name: Link, sqlScript: {connection: warehouse, path: escape.sql}}
        """);

    Path root = dir.resolve("scripts/sql").toRealPath();
    assertThatThrownBy(() -> ScheduleDefinitions.load(file))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e ->
                assertThat(e.problems())
                    .extracting(ConfigProblem::format)
                    .containsExactly(
                        file
                            + ":5: schedules[0].steps[1].sqlScript.connection: connection 'crm'"
                            + " is not in sql-scripts.yaml (known: reporting, warehouse)",
                        file
                            + ":6: schedules[0].steps[2].sqlScript.path: script"
                            + " 'nightly/prune.sql' does not exist below the scripts root "
                            + root,
                        file
                            + ":7: schedules[0].steps[3].sqlScript.path: script 'escape.sql'"
                            + " leads outside the scripts root "
                            + root));
  }

  @Test
  void aValidSqlScriptStepIsReadWithItsConnectionAndPath(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("sql"));
    Files.writeString(dir.resolve("sql/purge.sql"), "delete from t;");
    Files.writeString(
        dir.resolve("sql-scripts.yaml"), "root: sql\nconnections:\n  - name: reporting\n");
    Path file = dir.resolve("schedules.yaml");
    Files.writeString(
        file,
        """
        schedules:
          - id: a
            steps:
              - {index: 0, name: Purge, sqlScript: {connection: reporting, path: purge.sql}}
        """);

    assertThat(ScheduleDefinitions.load(file).get(0).steps().get(0).sqlScript())
        .isEqualTo(new SqlScriptStep("reporting", "purge.sql"));
  }

  @Test
  void theReportListsEveryProblemOfTheFileAndSaysNothingChanged() {
    ConfigException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ConfigException.class,
            () ->
                ScheduleDefinitions.parse(
                    """
                    schedules:
                      - id: a
                        trigger: {cron: "0 99 * * *"}
                        steps:
                          - {index: -2, name: A, executable: {path: /bin/sh}}
                    """,
                    FILE));

    assertThat(e.report())
        .isEqualTo(
            FILE
                + ":3: schedules[0].trigger.cron: '0 99 * * *' is not a valid cron expression:"
                + " hour 99 is out of range 0-23\n"
                + FILE
                + ":5: schedules[0].steps[0].index: must not be negative (got -2)\n"
                + FILE
                + ":5: schedules[0].steps[0].executable.path: '/bin/sh' must be relative to the"
                + " executables root (jimflow.steps.executables.root)\n"
                + "3 problems found; nothing was changed.");
  }

  /** Files with mistakes, each with every problem the report names, in the report's order. */
  static Stream<Arguments> filesWithMistakes() {
    return Stream.of(
        arguments(
            "an unknown key is reported with the closest known key",
            """
            schedules:
              - id: a
                overlapp: skip
                steps:
                  - {index: 0, name: A, executable: {path: a.sh}, timout: PT1M}
            """,
            List.of(
                ":3: schedules[0].overlapp: unknown key 'overlapp'; did you mean 'overlap'?",
                ":5: schedules[0].steps[0].timout: unknown key 'timout'; did you mean"
                    + " 'timeout'?")),
        arguments(
            "every invalid cron expression is reported with what is wrong",
            """
            schedules:
              - id: a
                trigger:
                  cron:
                    - "0 25 * * *"
                    - "*/0 * * * *"
                    - "0 2 * *"
                    - "0 2 * JAN-FOO *"
                    - "0 2 31-1 * *"
                    - "0 2 * * MON-FRI"
                    - "0,15,30,45 8-18/2 1,15 */3 1-5"
                    - "@daily"
                    - "@sometimes"
                steps:
                  - {index: 0, name: A, executable: {path: a.sh}}
            """,
            List.of(
                ":5: schedules[0].trigger.cron[0]: '0 25 * * *' is not a valid cron expression:"
                    + " hour 25 is out of range 0-23",
                ":6: schedules[0].trigger.cron[1]: '*/0 * * * *' is not a valid cron expression:"
                    + " minute step '0' must be a whole number of at least 1",
                ":7: schedules[0].trigger.cron[2]: '0 2 * *' is not a valid cron expression:"
                    + " has 4 fields, expected 5 (minute hour day-of-month month day-of-week)",
                ":8: schedules[0].trigger.cron[3]: '0 2 * JAN-FOO *' is not a valid cron"
                    + " expression: month 'FOO' is not a valid value (1-12 or JAN-DEC)",
                ":9: schedules[0].trigger.cron[4]: '0 2 31-1 * *' is not a valid cron expression:"
                    + " day-of-month range 31-1 ends before it starts",
                ":13: schedules[0].trigger.cron[8]: '@sometimes' is not a valid cron expression:"
                    + " unknown macro @sometimes (known: @yearly, @annually, @monthly, @weekly, @daily,"
                    + " @midnight, @hourly)")),
        arguments(
            "an invalid time zone is reported with a suggestion",
            """
            schedules:
              - id: a
                trigger: {cron: "0 2 * * *", timezone: Europe/Londn}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":3: schedules[0].trigger.timezone: 'Europe/Londn' is not an IANA time zone"
                    + " (e.g. Europe/London); did you mean Europe/London?")),
        arguments(
            "invalid durations are reported with an example",
            """
            schedules:
              - id: a
                catchupWindow: 1 hour
                steps:
                  - index: 0
                    name: A
                    executable: {path: a.sh}
                    timeout: PT2X
                    heartbeatTimeout: PT0S
            """,
            List.of(
                ":3: schedules[0].catchupWindow: '1 hour' is not an ISO-8601 duration (e.g."
                    + " PT30M)",
                ":8: schedules[0].steps[0].timeout: 'PT2X' is not an ISO-8601 duration (e.g."
                    + " PT30M)",
                ":9: schedules[0].steps[0].heartbeatTimeout: 'PT0S' must be longer than zero")),
        arguments(
            "a heartbeat timeout not shorter than the timeout is reported",
            """
            schedules:
              - id: a
                steps:
                  - {index: 0, name: A, executable: {path: a.sh}, timeout: PT1M, heartbeatTimeout: PT5M}
            """,
            List.of(
                ":4: schedules[0].steps[0].heartbeatTimeout: must be shorter than the step's"
                    + " timeout PT1M")),
        arguments(
            "an attempt timeout longer than the step's timeout is reported",
            """
            schedules:
              - id: a
                steps:
                  - {index: 0, name: A, executable: {path: a.sh}, timeout: PT1M, attemptTimeout: PT5M}
            """,
            List.of(
                ":4: schedules[0].steps[0].attemptTimeout: must not be longer than the step's"
                    + " timeout PT1M (timeout bounds the whole step, all attempts together)")),
        arguments(
            "a heartbeat timeout not shorter than the attempt timeout is reported",
            """
            schedules:
              - id: a
                steps:
                  - {index: 0, name: A, executable: {path: a.sh}, timeout: PT1H, attemptTimeout: PT1M, heartbeatTimeout: PT2M}
            """,
            List.of(
                ":4: schedules[0].steps[0].heartbeatTimeout: must be shorter than the step's"
                    + " attemptTimeout PT1M")),
        arguments(
            "a catchup window below temporals minimum is reported",
            """
            schedules:
              - id: a
                catchupWindow: PT5S
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(":3: schedules[0].catchupWindow: must be at least PT10S (Temporal's minimum)")),
        arguments(
            "invalid times and days are reported",
            """
            schedules:
              - id: a
                trigger:
                  at: {days: [MON, Funday], times: ["25:00", "2pm", "07:30"]}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":4: schedules[0].trigger.at.days[1]: 'Funday' is not a day of the week (MON,"
                    + " TUE, … SUN)",
                ":4: schedules[0].trigger.at.times[0]: '25:00' is not a time of day (HH:mm, e.g."
                    + " 02:00)",
                ":4: schedules[0].trigger.at.times[1]: '2pm' is not a time of day (HH:mm, e.g."
                    + " 02:00)")),
        arguments(
            "specific times need at least one time",
            """
            schedules:
              - id: a
                trigger:
                  at: {days: [MON], times: []}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
              - id: b
                trigger:
                  at: {days: [MON]}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":4: schedules[0].trigger.at.times: list at least one time of day (e.g."
                    + " [\"02:00\"])",
                ":8: schedules[1].trigger.at: missing required key 'times' (e.g."
                    + " [\"02:00\"])")),
        arguments(
            "an empty cron list is refused, alone or beside another trigger",
            """
            schedules:
              - id: a
                trigger:
                  cron: []
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
              - id: b
                trigger: {cron: [], at: {times: ["02:00"]}}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":4: schedules[0].trigger.cron: list at least one cron expression (e.g. [\"0 2 * *"
                    + " *\"]); leave the trigger out for a schedule run only by hand",
                ":7: schedules[1].trigger.cron: list at least one cron expression (e.g. [\"0 2 * *"
                    + " *\"]); leave the trigger out for a schedule run only by hand")),
        arguments(
            "an interval needs exactly one of minutes and hours",
            """
            schedules:
              - id: both
                trigger:
                  every: {minutes: 30, hours: 1}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
              - id: neither
                trigger:
                  every: {from: "08:00"}
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":4: schedules[0].trigger.every: give either minutes or hours, not both",
                ":8: schedules[1].trigger.every: give the interval as minutes or hours (e.g."
                    + " minutes: 30)")),
        arguments(
            "an interval window must end after it starts and its size must be in range",
            """
            schedules:
              - id: a
                trigger:
                  every:
                    minutes: 0
                    from: "18:00"
                    to: "08:00"
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":5: schedules[0].trigger.every.minutes: 0 is out of range 1-1440",
                ":7: schedules[0].trigger.every.to: '08:00' must be later than from '18:00'"
                    + " (windows end on the same day)")),
        arguments(
            "a trigger without any form is reported",
            """
            schedules:
              - id: a
                trigger:
                  timezone: UTC
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":4: schedules[0].trigger: a trigger needs cron, at or every (leave the trigger"
                    + " out for a schedule run only by hand)")),
        arguments(
            "duplicate schedule ids are reported at the second occurrence",
            """
            schedules:
              - id: nightly
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
              - id: nightly
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(":4: schedules[1].id: duplicate schedule id 'nightly' (first used on line 2)")),
        arguments(
            "a schedule id that cannot be a workflow id is reported",
            """
            schedules:
              - id: nightly/hr
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(
                ":2: schedules[0].id: 'nightly/hr' is not a valid schedule id (letters, digits,"
                    + " '.', '_' and '-', starting with a letter or digit)")),
        arguments(
            "duplicate step names within a schedule are reported but across schedules are fine",
            """
            schedules:
              - id: a
                steps:
                  - {index: 0, name: Import, executable: {path: a.sh}}
                  - {index: 1, name: Import, executable: {path: a.sh}}
              - id: b
                steps:
                  - {index: 0, name: Import, executable: {path: a.sh}}
            """,
            List.of(
                ":5: schedules[0].steps[1].name: duplicate step name 'Import' in this schedule"
                    + " (first used on line 4)")),
        arguments(
            "a negative index is reported",
            """
            schedules:
              - id: a
                steps:
                  - {index: -1, name: A, executable: {path: a.sh}}
            """,
            List.of(":4: schedules[0].steps[0].index: must not be negative (got -1)")),
        arguments(
            "a schedule without steps is reported",
            """
            schedules:
              - id: a
                trigger: {cron: "0 2 * * *"}
              - id: b
                steps: []
            """,
            List.of(
                ":2: schedules[0].steps: a schedule needs at least one step",
                ":5: schedules[1].steps: a schedule needs at least one step")),
        arguments(
            "a step without a type is reported",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    timeout: PT1M
            """,
            List.of(
                ":4: schedules[0].steps[0]: a step needs a type: runProfile or executable or sqlScript")),
        arguments(
            "a step with two types is reported",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    executable: {path: a.sh}
                    runProfile: {connectedSystem: HR, runProfile: Export}
            """,
            List.of(
                ":4: schedules[0].steps[0]: a step has exactly one type but this one has"
                    + " runProfile and executable")),
        arguments(
            "an unknown step type is reported as such",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    execute: {path: a.sh}
            """,
            List.of(
                ":6: schedules[0].steps[0].execute: unknown step type 'execute'; did you mean"
                    + " 'executable'? (step types: runProfile, executable, sqlScript)")),
        arguments(
            "power shell steps are rejected as not supported yet",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: Tidy
                    powerShell: {script: tidy.ps1}
            """,
            List.of(
                ":6: schedules[0].steps[0].powerShell: powerShell steps are not supported yet;"
                    + " use runProfile or executable or sqlScript (JIM would skip this step"
                    + " silently)")),
        arguments(
            "a sql script step needs a connection and a path below the scripts root",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: Purge
                    sqlScript: {file: purge.sql}
                  - {index: 1, name: B, sqlScript: {connection: reporting, path: ../etc/purge.sql}}
                  - {index: 1, name: C, sqlScript: {connection: reporting, path: /tmp/purge.sql}}
            """,
            List.of(
                ":6: schedules[0].steps[0].sqlScript.file: unknown key 'file'; known keys:"
                    + " connection, path",
                ":6: schedules[0].steps[0].sqlScript: missing required key 'connection'",
                ":6: schedules[0].steps[0].sqlScript: missing required key 'path'",
                ":7: schedules[0].steps[1].sqlScript.path: '../etc/purge.sql' leaves the scripts"
                    + " root (root in sql-scripts.yaml)",
                ":8: schedules[0].steps[2].sqlScript.path: '/tmp/purge.sql' must be relative to"
                    + " the scripts root (root in sql-scripts.yaml)")),
        arguments(
            "executable paths must stay below the executables root",
            """
            schedules:
              - id: a
                steps:
                  - {index: 0, name: A, executable: {path: /usr/bin/rm}}
                  - {index: 0, name: B, executable: {path: ../../bin/sh}}
                  - {index: 0, name: C, executable: {path: tools/../../x.sh}}
                  - {index: 0, name: D, executable: {path: 'C:\\Windows\\cmd.exe'}}
                  - {index: 0, name: E, executable: {path: ok.sh, workingDirectory: ..}}
                  - {index: 0, name: F, executable: {path: tools/../ok.sh, workingDirectory: .}}
            """,
            List.of(
                ":4: schedules[0].steps[0].executable.path: '/usr/bin/rm' must be relative to the"
                    + " executables root (jimflow.steps.executables.root)",
                ":5: schedules[0].steps[1].executable.path: '../../bin/sh' leaves the executables"
                    + " root (jimflow.steps.executables.root)",
                ":6: schedules[0].steps[2].executable.path: 'tools/../../x.sh' leaves the"
                    + " executables root (jimflow.steps.executables.root)",
                ":7: schedules[0].steps[3].executable.path: 'C:\\Windows\\cmd.exe' must be"
                    + " relative to the executables root (jimflow.steps.executables.root)",
                ":8: schedules[0].steps[4].executable.workingDirectory: '..' leaves the"
                    + " executables root (jimflow.steps.executables.root)")),
        arguments(
            "invalid environment variable names are reported",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    executable:
                      path: a.sh
                      env:
                        GOOD_NAME: x
                        BAD-NAME: y
            """,
            List.of(
                ":10: schedules[0].steps[0].executable.env.BAD-NAME: 'BAD-NAME' is not a valid"
                    + " environment variable name")),
        arguments(
            "a literal value for a secret looking variable is refused with the reference syntax",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    executable:
                      path: a.sh
                      env:
                        MODE: fast
                        DB_PASSWORD: hunter2
                        API_TOKEN: "${secret:api token}"
                        CLIENT_SECRET: "${secret:client-secret}"
            """,
            List.of(
                ":10: schedules[0].steps[0].executable.env.DB_PASSWORD: 'DB_PASSWORD' looks like"
                    + " a secret and must not be written into a schedule: write"
                    + " '${secret:db-password}' and give the worker the value as file 'db-password'"
                    + " in its secrets folder (jimflow.secrets.dir) or as environment variable"
                    + " JIMFLOW_SECRET_DB_PASSWORD",
                ":11: schedules[0].steps[0].executable.env.API_TOKEN: '${secret:api token}' is"
                    + " not a valid secret reference; write ${secret:NAME} with a NAME of letters,"
                    + " digits, '.', '_' and '-', e.g. '${secret:api-token}'")),
        arguments(
            "retry values out of range are reported",
            """
            schedules:
              - id: a
                steps:
                  - index: 0
                    name: A
                    executable: {path: a.sh}
                    retry:
                      maximumAttempts: 0
                      initialInterval: -PT1S
                      backoffCoefficient: 0.5
                  - index: 1
                    name: B
                    executable: {path: a.sh}
                    retry: {maximumAttempts: 1000, backoffCoefficient: 11}
            """,
            List.of(
                ":8: schedules[0].steps[0].retry.maximumAttempts: 0 is out of range 1-100",
                ":9: schedules[0].steps[0].retry.initialInterval: '-PT1S' must be longer than"
                    + " zero",
                ":10: schedules[0].steps[0].retry.backoffCoefficient: 0.5 is out of range"
                    + " 1.0-10.0",
                ":14: schedules[0].steps[1].retry.maximumAttempts: 1000 is out of range 1-100",
                ":14: schedules[0].steps[1].retry.backoffCoefficient: 11.0 is out of range"
                    + " 1.0-10.0")),
        arguments(
            "wrong value kinds and unknown policy words are reported",
            """
            schedules:
              - id: a
                enabled: maybe
                onStepFailure: halt
                overlap: bufer-one
                steps:
                  - {index: first, name: [A], executable: {path: a.sh}, continueOnFailure: 1}
            """,
            List.of(
                ":3: schedules[0].enabled: 'maybe' is not true or false",
                ":4: schedules[0].onStepFailure: 'halt' is not one of stop, continue",
                ":5: schedules[0].overlap: 'bufer-one' is not one of skip, buffer-one,"
                    + " allow-all, cancel-other; did you mean buffer-one?",
                ":7: schedules[0].steps[0].index: 'first' is not a whole number",
                ":7: schedules[0].steps[0].name: expected a value but found a list",
                ":7: schedules[0].steps[0].continueOnFailure: '1' is not true or false")),
        arguments(
            "missing required keys are reported at their mapping",
            """
            schedules:
              - name: no id
                steps:
                  - executable: {}
            """,
            List.of(
                ":2: schedules[0]: missing required key 'id'",
                ":4: schedules[0].steps[0]: missing required key 'index'",
                ":4: schedules[0].steps[0]: missing required key 'name'",
                ":4: schedules[0].steps[0].executable: missing required key 'path'")),
        arguments(
            "a duplicate key in one mapping is reported",
            """
            schedules:
              - id: a
                id: b
                steps: [{index: 0, name: A, executable: {path: a.sh}}]
            """,
            List.of(":3: schedules[0].id: duplicate key (first given on line 2)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filesWithMistakes")
  void aFileWithAMistakeIsRefusedWithEveryProblemAtItsLine(
      String rule, String yaml, List<String> expected) {
    assertThat(problems(yaml))
        .containsExactlyElementsOf(expected.stream().map(line -> FILE + line).toList());
  }

  private static List<String> problems(String yaml) {
    try {
      ScheduleDefinitions.parse(yaml, FILE);
    } catch (ConfigException e) {
      return e.problems().stream().map(ConfigProblem::format).toList();
    }
    return List.of();
  }
}
