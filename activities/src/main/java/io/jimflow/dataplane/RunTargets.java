package io.jimflow.dataplane;

import io.jimflow.connector.csv.CsvSettings;
import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;

/**
 * Which connected system, run profile and object type a run is for, which connector runs it, and
 * the connector's settings: the file a CSV run reads or writes and its delimiter and encoding.
 */
final class RunTargets {

  private final DataPlaneConfig config;
  private final Path baseDirectory;

  /**
   * @param baseDirectory what relative file paths of run profiles are resolved against (the
   *     worker's working directory by default)
   */
  RunTargets(DataPlaneConfig config, Path baseDirectory) {
    this.config = config;
    this.baseDirectory = baseDirectory;
  }

  ConnectedSystemConfig system(String idOrName) {
    return config
        .system(idOrName)
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "unknown connected system '"
                        + idOrName
                        + "' (known: "
                        + String.join(
                            ", ",
                            config.connectedSystems().stream()
                                .map(ConnectedSystemConfig::name)
                                .toList())
                        + ")",
                    "UnknownConnectedSystem"));
  }

  static RunProfileConfig profile(ConnectedSystemConfig system, String idOrName) {
    return system
        .runProfile(idOrName)
        .orElseThrow(
            () ->
                ApplicationFailure.newNonRetryableFailure(
                    "connected system '"
                        + system.name()
                        + "' has no run profile '"
                        + idOrName
                        + "' (known: "
                        + String.join(
                            ", ",
                            system.runProfiles().stream().map(RunProfileConfig::name).toList())
                        + ")",
                    "UnknownRunProfile"));
  }

  static ObjectTypeConfig objectType(ConnectedSystemConfig system, RunProfileConfig profile) {
    return system.objectType(profile.objectType()).orElseThrow();
  }

  Path file(RunProfileConfig profile) {
    return baseDirectory.resolve(profile.file()).normalize();
  }

  static CsvSettings settings(ConnectedSystemConfig system) {
    String delimiter = system.settings().get("delimiter");
    return new CsvSettings(delimiter == null ? ',' : delimiter.charAt(0), system.encoding());
  }

  static boolean isLdap(ConnectedSystemConfig system) {
    return "ldap".equals(system.connectorType());
  }
}
