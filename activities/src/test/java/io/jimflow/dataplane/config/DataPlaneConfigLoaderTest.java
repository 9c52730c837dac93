package io.jimflow.dataplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.config.tree.ConfigException;
import io.jimflow.config.tree.ConfigProblem;
import io.jimflow.store.RunType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DataPlaneConfigLoaderTest {

  final DataPlaneConfigLoader loader = new DataPlaneConfigLoader();

  @Test
  void theShippedNightlyHrSyncConfigurationIsValid() {
    DataPlaneConfig config = loader.load(Path.of("..", "config", "connected-systems.yaml"));

    assertThat(config.connectedSystems())
        .extracting(ConnectedSystemConfig::name)
        .containsExactly("HR System", "Directory", "Badge System");
    assertThat(config.system("HR System").orElseThrow().runProfile("Full Import").orElseThrow())
        .satisfies(
            p -> {
              assertThat(p.runType()).isEqualTo(RunType.FullImport);
              assertThat(p.file()).isEqualTo("data/hr.csv");
              assertThat(p.objectType()).isEqualTo("person");
            });
    assertThat(
            config.system("directory").orElseThrow().runProfile("Delta Import").orElseThrow().id())
        .isEqualTo("confirming-import");
    ConnectedSystemConfig directory = config.system("Directory").orElseThrow();
    assertThat(directory.connectorType()).isEqualTo("ldap");
    assertThat(directory.settings())
        .containsEntry("url", "${env:JIMFLOW_DIRECTORY_URL:-ldap://127.0.0.1:10389}")
        .containsEntry("password", "${secret:directory-password}");
    assertThat(config.syncRules().outbound()).hasSize(2);
    assertThat(config.syncRules().deletion())
        .singleElement()
        .satisfies(d -> assertThat(d.gracePeriod()).isEqualTo(Duration.ofDays(7)));
    assertThat(config.joinKeyAttributes()).containsEntry("person", Set.of("employeeId"));
  }

  @Test
  void everyProblemIsReportedWithItsLine() {
    String yaml =
        """
        connectedSystems:
          - id: hr
            connector: sap
            objectTypes:
              - {name: person, anchor: id, attributes: [employeeId]}
            runProfiles:
              - {id: imp, runType: FullImprt, file: hr.csv}
              - {id: sync, runType: FullSynchronisation, pageSize: lots}
        syncRules:
          inbound:
            - id: r1
              system: nowhere
              objectType: person
              mvoType: person
          outbound:
            - id: r2
              system: hr
              objectType: person
              mvoType: person
              flows: [{from: name, to: employeeId}]
              colour: blue
        mvoDeletion:
          - {mvoType: person, gracePeriod: soon, authoritativeSystems: [hr]}
        """;

    ConfigException error =
        catchThrowableOfType(ConfigException.class, () -> loader.parse("cs.yaml", yaml));

    assertThat(error.problems())
        .extracting(ConfigProblem::toString)
        .containsExactlyInAnyOrder(
            "cs.yaml:3: connected system 'hr': unknown connector 'sap' (known: csv, ldap)",
            "cs.yaml:5: connected system 'hr', object type 'person': anchor 'id' is not one of its attributes [employeeId]",
            "cs.yaml:7: connected system 'hr', run profile 'imp': 'runType' must be one of [FullImport, DeltaImport, FullSynchronisation, DeltaSynchronisation, Export], not 'FullImprt'",
            "cs.yaml:8: connected system 'hr', run profile 'sync': pageSize must be a whole number, not 'lots'",
            "cs.yaml:12: inbound sync rule 'r1': unknown connected system 'nowhere'",
            "cs.yaml:16: outbound sync rule 'r2': no flow fills 'id', the anchor of person",
            "cs.yaml:21: an outbound sync rule: unknown key 'colour' (expected one of id, system, objectType, mvoType, scope, flows, deprovisionOnDeletion)",
            "cs.yaml:23: MVO deletion rule for 'person': gracePeriod 'soon' is not a duration (ISO-8601, e.g. P7D or PT12H)");
  }

  @Test
  void anEncodingAndStopAfterErrorsAreCheckedWhereTheyAreWritten() {
    String yaml =
        """
        connectedSystems:
          - id: hr
            connector: csv
            settings: {encoding: latin-9000}
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId]}
            runProfiles:
              - {id: imp, runType: FullImport, file: hr.csv, stopAfterErrors: 0}
              - {id: imp2, runType: FullImport, file: hr.csv, stopAfterErrors: many}
          - id: fr
            connector: csv
            settings: {encoding: windows-1252}
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId]}
            runProfiles:
              - {id: imp, runType: FullImport, file: fr.csv, stopAfterErrors: 25}
              - {id: imp2, runType: FullImport, file: fr.csv}
        """;

    ConfigException error =
        catchThrowableOfType(ConfigException.class, () -> loader.parse("cs.yaml", yaml));

    assertThat(error.problems())
        .extracting(ConfigProblem::toString)
        .containsExactlyInAnyOrder(
            "cs.yaml:4: connected system 'hr': unknown encoding 'latin-9000' (e.g. UTF-8, ISO-8859-1, windows-1252)",
            "cs.yaml:8: connected system 'hr', run profile 'imp': stopAfterErrors must be between 1 and 10000000, not 0",
            "cs.yaml:9: connected system 'hr', run profile 'imp2': stopAfterErrors must be a whole number, not 'many'");

    DataPlaneConfig fine =
        loader.parse(
            "cs.yaml",
            yaml.substring(yaml.indexOf("  - id: fr"))
                .replace("  - id: fr", "connectedSystems:\n  - id: fr"));
    ConnectedSystemConfig fr = fine.system("fr").orElseThrow();
    assertThat(fr.encoding().name()).isEqualTo("windows-1252");
    assertThat(fr.runProfile("imp").orElseThrow().stopAfterErrors()).isEqualTo(25);
    assertThat(fr.runProfile("imp2").orElseThrow().stopAfterErrors())
        .isEqualTo(RunProfileConfig.DEFAULT_STOP_AFTER_ERRORS);
  }

  @Test
  void thresholdsHaveDefaultsAGlobalDefaultAndASystemsOwnAndAreChecked() {
    String yaml =
        """
        thresholds:
          exportDeletions: {count: 100}
        connectedSystems:
          - id: hr
            connector: csv
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId]}
          - id: dir
            connector: csv
            thresholds:
              exportDeletions: {share: 2.5%}
              importAbsent: {count: 50, share: 0.2}
              approvalTimeout: PT2H
              samples: 12
            objectTypes:
              - {name: person, anchor: employeeId, attributes: [employeeId]}
        """;

    DataPlaneConfig config = loader.parse("cs.yaml", yaml);

    SafetyThresholds hr = config.system("hr").orElseThrow().thresholds();
    assertThat(hr.exportDeletions()).isEqualTo(new Threshold(100, 0.10));
    assertThat(hr.exportUpdates()).isEqualTo(SafetyThresholds.DEFAULTS.exportUpdates());
    SafetyThresholds dir = config.system("dir").orElseThrow().thresholds();
    assertThat(dir.exportDeletions()).isEqualTo(new Threshold(100, 0.025));
    assertThat(dir.importAbsent()).isEqualTo(new Threshold(50, 0.2));
    assertThat(dir.approvalTimeout()).isEqualTo(Duration.ofHours(2));
    assertThat(hr.approvalTimeout()).isEqualTo(Duration.ofHours(24));
    assertThat(dir.samples()).isEqualTo(12);
    assertThat(hr.samples()).isEqualTo(5);

    ConfigException error =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                loader.parse(
                    "cs.yaml",
                    yaml.replace("{count: 100}", "{count: -1, share: 120%}")
                        .replace("2.5%", "lots")
                        .replace("PT2H", "P90D")
                        .replace("samples: 12", "samples: 100000")));
    assertThat(error.problems())
        .extracting(ConfigProblem::toString)
        .containsExactlyInAnyOrder(
            "cs.yaml:2: the default exportDeletions: count must be between 0 and 1000000000, not -1",
            "cs.yaml:2: the default exportDeletions: share must be between 0% and 100%, not 120%",
            "cs.yaml:11: connected system 'dir' exportDeletions: share must be a percentage such as 10%, not 'lots'",
            "cs.yaml:13: connected system 'dir': approvalTimeout must be between PT1M and P30D, not P90D",
            "cs.yaml:14: connected system 'dir': samples must be between 0 and 20, not 100000");
  }

  @Test
  void invalidYamlIsReportedWithItsLine() {
    assertThatThrownBy(() -> loader.parse("cs.yaml", "connectedSystems:\n  - id: [hr\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("cs.yaml:")
        .hasMessageContaining("is not valid YAML");
  }

  @Test
  void aMissingFileIsReportedByName() {
    assertThatThrownBy(() -> loader.load(Path.of("no/such.yaml")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no/such.yaml: cannot be read");
  }

  @Test
  void aSettingThatIsNotASingleValueIsAProblemWithItsLine() {
    String yaml =
        """
        connectedSystems:
          - id: hr
            connector: csv
            settings:
              delimiter: [";"]
            objectTypes:
              - {name: person, anchor: id, attributes: [id]}
        """;

    assertThat(problems(yaml))
        .containsExactly(
            "cs.yaml:5: connected system 'hr' setting delimiter must be a single value");
  }

  @Test
  void aKeyGivenTwiceNamesTheLineOfTheFirst() {
    String yaml =
        """
        connectedSystems:
          - id: hr
            connector: csv
            id: payroll
            objectTypes:
              - {name: person, anchor: id, attributes: [id]}
        """;

    assertThat(problems(yaml))
        .containsExactly(
            "cs.yaml:4: connectedSystems[0].id: duplicate key (first given on line 2)");
  }

  private List<String> problems(String yaml) {
    return catchThrowableOfType(ConfigException.class, () -> loader.parse("cs.yaml", yaml))
        .problems()
        .stream()
        .map(ConfigProblem::format)
        .toList();
  }
}
