package io.jimflow.dataplane.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.ConnectedSystemsFile;
import io.jimflow.config.tree.Problems;
import io.jimflow.sync.SyncRules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and validates {@code config/connected-systems.yaml}. Reports every problem it finds, each
 * with file and line, and returns a configuration only when there is none: nothing half-applied.
 *
 * <pre>
 * connectedSystems:
 *   - id: hr
 *     name: HR System
 *     connector: csv
 *     settings: { delimiter: "," }
 *     objectTypes:
 *       - { name: person, anchor: employeeId, attributes: [employeeId, firstName] }
 *     runProfiles:
 *       - { id: full-import, name: HR Full Import, runType: FullImport, file: data/hr.csv, pageSize: 2000 }
 * syncRules:
 *   inbound:  [ { id, system, objectType, mvoType, project, scope: [...], join: [{cso, mvo}], flows: [{from, to}] } ]
 *   outbound: [ { id, system, objectType, mvoType, scope: [...], flows: [{from, to}], deprovisionOnDeletion } ]
 * mvoDeletion:
 *   - { mvoType: person, gracePeriod: P7D, authoritativeSystems: [hr] }
 * </pre>
 */
public final class DataPlaneConfigLoader {

  /**
   * Loads a file.
   *
   * @throws io.jimflow.config.tree.ConfigException listing every problem
   */
  public DataPlaneConfig load(Path file) {
    Problems problems = new Problems(file.toString());
    return read(ConnectedSystemsFile.read(file, problems), problems);
  }

  /**
   * Parses configuration text; {@code fileName} only names the source in problems.
   *
   * @throws io.jimflow.config.tree.ConfigException listing every problem
   */
  public DataPlaneConfig parse(String fileName, String yaml) {
    Problems problems = new Problems(fileName);
    return read(ConnectedSystemsFile.parse(yaml, problems), problems);
  }

  private static DataPlaneConfig read(Optional<ConfigNode> root, Problems problems) {
    DataPlaneConfig config = root.map(r -> config(r, problems)).orElse(null);
    problems.throwIfAny();
    return config;
  }

  private static DataPlaneConfig config(ConfigNode root, Problems problems) {
    ConnectedSystemReader reader = new ConnectedSystemReader(problems);
    Map<String, ConfigNode> top =
        reader.mapping(
            root, "the file", "connectedSystems", "syncRules", "mvoDeletion", "thresholds");
    SafetyThresholds thresholds =
        new ThresholdsReader(problems)
            .thresholds(top.get("thresholds"), "the default", SafetyThresholds.DEFAULTS);
    List<ConnectedSystemConfig> systems = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (ConfigNode node : reader.list(top, "connectedSystems", root, true)) {
      ConnectedSystemConfig system = reader.system(node, thresholds);
      if (system != null && !ids.add(system.id())) {
        reader.problem(node, "connected system '" + system.id() + "' is defined twice");
      }
      if (system != null && !system.name().equals(system.id()) && !ids.add(system.name())) {
        reader.problem(node, "connected system name '" + system.name() + "' is used twice");
      }
      if (system != null) {
        systems.add(system);
      }
    }
    Map<String, ConnectedSystemConfig> byId = new LinkedHashMap<>();
    systems.forEach(s -> byId.putIfAbsent(s.id(), s));
    SyncRules rules = new SyncRulesReader(problems).rules(top, root, byId);
    return new DataPlaneConfig(systems, rules);
  }
}
