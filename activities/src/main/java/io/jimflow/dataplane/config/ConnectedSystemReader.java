package io.jimflow.dataplane.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Problems;
import io.jimflow.connector.ldap.LdapSettings;
import io.jimflow.store.RunType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one entry of {@code connectedSystems}: its connector and settings, object types and run
 * profiles, each checked against the others (an LDAP system's settings against its attributes, a
 * run profile's object type against the system's).
 */
final class ConnectedSystemReader extends NodeReading {

  private static final Set<String> CONNECTOR_TYPES = Set.of("csv", "ldap");
  private static final int MAX_PAGE_SIZE = 100_000;

  ConnectedSystemReader(Problems problems) {
    super(problems);
  }

  ConnectedSystemConfig system(ConfigNode node, SafetyThresholds defaults) {
    Map<String, ConfigNode> map =
        mapping(
            node,
            "a connected system",
            "id",
            "name",
            "connector",
            "settings",
            "objectTypes",
            "runProfiles",
            "thresholds");
    String id = string(map, "id", node, true);
    String label = "connected system '" + (id == null ? "?" : id) + "'";
    String name = Optional.ofNullable(string(map, "name", node, false)).orElse(id);
    String connector = string(map, "connector", node, true);
    if (connector != null && !CONNECTOR_TYPES.contains(connector)) {
      problem(
          map.get("connector"),
          label + ": unknown connector '" + connector + "' (known: csv, ldap)");
    }
    boolean ldap = "ldap".equals(connector);
    Map<String, String> settings = new LinkedHashMap<>();
    ConfigNode settingsNode = map.get("settings");
    Map<String, ConfigNode> settingNodes = new LinkedHashMap<>();
    if (settingsNode != null && ldap) {
      settingNodes.putAll(
          mapping(settingsNode, label + " settings", LdapSettings.KEYS.toArray(String[]::new)));
      settingNodes.forEach(
          (key, value) -> putIfRead(settings, key, joined(value, label + " setting " + key)));
    } else if (settingsNode != null) {
      Map<String, ConfigNode> csvSettings =
          mapping(settingsNode, label + " settings", "delimiter", "encoding");
      csvSettings.forEach(
          (key, value) -> putIfRead(settings, key, scalar(value, label + " setting " + key)));
      String delimiter = settings.get("delimiter");
      if (delimiter != null && delimiter.length() != 1) {
        problem(settingsNode, label + ": delimiter must be one character, not '" + delimiter + "'");
      }
      String encoding = settings.get("encoding");
      if (encoding != null && !ConnectedSystemConfig.isKnownEncoding(encoding)) {
        problem(
            csvSettings.get("encoding"),
            label + ": unknown encoding '" + encoding + "' (e.g. UTF-8, ISO-8859-1, windows-1252)");
      }
    }
    List<ObjectTypeConfig> types = new ArrayList<>();
    for (ConfigNode typeNode : list(map, "objectTypes", node, true)) {
      ObjectTypeConfig type = objectType(typeNode, label, ldap);
      if (type != null) {
        if (types.stream().anyMatch(t -> t.name().equals(type.name()))) {
          problem(typeNode, label + ": object type '" + type.name() + "' is defined twice");
        }
        types.add(type);
      }
    }
    List<RunProfileConfig> profiles = new ArrayList<>();
    for (ConfigNode profileNode : list(map, "runProfiles", node, false)) {
      RunProfileConfig profile = runProfile(profileNode, label, types, ldap);
      if (profile != null) {
        if (profiles.stream().anyMatch(p -> p.id().equals(profile.id()))) {
          problem(profileNode, label + ": run profile '" + profile.id() + "' is defined twice");
        }
        if (profiles.stream().anyMatch(p -> p.name().equals(profile.name()))) {
          problem(profileNode, label + ": run profile name '" + profile.name() + "' is used twice");
        }
        profiles.add(profile);
      }
    }
    if (ldap) {
      boolean exports = profiles.stream().anyMatch(p -> p.runType() == RunType.Export);
      Set<String> attributes = new HashSet<>();
      types.forEach(t -> attributes.addAll(t.attributes()));
      for (LdapSettings.Problem p : LdapSettings.problems(settings, attributes, exports)) {
        ConfigNode at = p.key() == null ? null : settingNodes.get(p.key());
        problem(
            at != null ? at : settingsNode != null ? settingsNode : node,
            label + ": " + p.message());
      }
    }
    if (id == null || connector == null) {
      return null;
    }
    SafetyThresholds thresholds =
        new ThresholdsReader(problems()).thresholds(map.get("thresholds"), label, defaults);
    return new ConnectedSystemConfig(id, name, connector, settings, types, profiles, thresholds);
  }

  private ObjectTypeConfig objectType(ConfigNode node, String system, boolean ldap) {
    Map<String, ConfigNode> map =
        ldap
            ? mapping(node, "an object type", "name", "anchor", "attributes", "multiValued")
            : mapping(node, "an object type", "name", "anchor", "attributes");
    String name = string(map, "name", node, true);
    String anchor = string(map, "anchor", node, true);
    List<String> attributes = strings(map, "attributes", node, true);
    List<String> multiValued = strings(map, "multiValued", node, false);
    if (name == null || anchor == null) {
      return null;
    }
    for (String attribute : multiValued) {
      if (!attributes.contains(attribute)) {
        problem(
            map.get("multiValued"),
            system
                + ", object type '"
                + name
                + "': multi-valued '"
                + attribute
                + "' is not one of its attributes");
      }
    }
    // A directory assigns some anchors itself (entryUUID, objectGUID): no need to list them.
    if (!ldap && !attributes.contains(anchor)) {
      problem(
          map.get("anchor"),
          system
              + ", object type '"
              + name
              + "': anchor '"
              + anchor
              + "' is not one of its attributes "
              + attributes);
    }
    if (new HashSet<>(attributes).size() != attributes.size()) {
      problem(
          map.get("attributes"),
          system + ", object type '" + name + "': attributes are listed twice");
    }
    return new ObjectTypeConfig(name, anchor, attributes, multiValued);
  }

  private RunProfileConfig runProfile(
      ConfigNode node, String system, List<ObjectTypeConfig> types, boolean ldap) {
    Map<String, ConfigNode> map =
        mapping(
            node,
            "a run profile",
            "id",
            "name",
            "runType",
            "pageSize",
            "file",
            "objectType",
            "stopAfterErrors");
    String id = string(map, "id", node, true);
    String label = system + ", run profile '" + (id == null ? "?" : id) + "'";
    String name = Optional.ofNullable(string(map, "name", node, false)).orElse(id);
    RunType runType = enumValue(map, "runType", node, RunType.class, label);
    int pageSize =
        wholeNumber(map, "pageSize", label, RunProfileConfig.DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
    int stopAfterErrors =
        wholeNumber(
            map,
            "stopAfterErrors",
            label,
            RunProfileConfig.DEFAULT_STOP_AFTER_ERRORS,
            1,
            RunProfileConfig.MAX_STOP_AFTER_ERRORS);
    String file = string(map, "file", node, false);
    if (ldap && file != null) {
      problem(map.get("file"), label + ": an LDAP run profile reads no file");
    }
    if (!ldap
        && runType != null
        && (runType.isImport() || runType == RunType.Export)
        && file == null) {
      problem(node, label + ": a " + runType + " run profile needs 'file'");
    }
    if (runType != null && runType.isSynchronisation() && file != null) {
      problem(map.get("file"), label + ": a " + runType + " run profile reads no file");
    }
    String givenType = string(map, "objectType", node, false);
    String objectType = givenType;
    if (givenType == null && types.size() == 1) {
      objectType = types.get(0).name();
    } else if (givenType == null && runType != null && !runType.isSynchronisation()) {
      problem(node, label + ": 'objectType' is needed when the system has several object types");
    } else if (givenType != null && types.stream().noneMatch(t -> t.name().equals(givenType))) {
      problem(map.get("objectType"), label + ": unknown object type '" + givenType + "'");
    }
    if (id == null || runType == null) {
      return null;
    }
    return new RunProfileConfig(id, name, runType, pageSize, file, objectType, stopAfterErrors);
  }

  /** A whole number from 1 to {@code max}, or {@code absent} when the key is not there. */
  /** A setting that could not be read is reported already; leaving it out keeps reading on. */
  private static void putIfRead(Map<String, String> settings, String key, String value) {
    if (value != null) {
      settings.put(key, value);
    }
  }
}
