package io.jimflow.dataplane.config;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A connected system: where identities come from or go to.
 *
 * @param connectorType {@code csv} or {@code ldap}
 * @param settings connector settings, e.g. {@code delimiter}, {@code encoding}
 * @param thresholds above which its runs hold for approval
 */
public record ConnectedSystemConfig(
    String id,
    String name,
    String connectorType,
    Map<String, String> settings,
    List<ObjectTypeConfig> objectTypes,
    List<RunProfileConfig> runProfiles,
    SafetyThresholds thresholds) {

  public ConnectedSystemConfig {
    settings = Map.copyOf(settings);
    objectTypes = List.copyOf(objectTypes);
    runProfiles = List.copyOf(runProfiles);
  }

  /** The encoding of the system's files: its {@code encoding} setting, UTF-8 by default. */
  public Charset encoding() {
    String name = settings.get("encoding");
    return name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
  }

  /** Whether this Java runtime reads and writes files in the named encoding. */
  static boolean isKnownEncoding(String name) {
    try {
      return Charset.isSupported(name);
    } catch (IllegalCharsetNameException e) {
      return false;
    }
  }

  public Optional<ObjectTypeConfig> objectType(String name) {
    return objectTypes.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** The run profile with this id, or else with this name. */
  public Optional<RunProfileConfig> runProfile(String idOrName) {
    return runProfiles.stream()
        .filter(p -> p.id().equals(idOrName))
        .findFirst()
        .or(() -> runProfiles.stream().filter(p -> p.name().equals(idOrName)).findFirst());
  }
}
