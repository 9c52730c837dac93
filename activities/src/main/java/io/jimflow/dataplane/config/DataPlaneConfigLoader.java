package io.jimflow.dataplane.config;

import io.jimflow.connector.ldap.LdapSettings;
import io.jimflow.store.RunType;
import io.jimflow.sync.AttributeFlow;
import io.jimflow.sync.Condition;
import io.jimflow.sync.DeletionRule;
import io.jimflow.sync.InboundRule;
import io.jimflow.sync.JoinPair;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncRules;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

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

  private static final Set<String> CONNECTOR_TYPES = Set.of("csv", "ldap");
  private static final int MAX_PAGE_SIZE = 100_000;

  /** Loads a file; throws {@link ConfigException} listing every problem. */
  public DataPlaneConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          List.of(new ConfigProblem(file.toString(), 0, "cannot be read: " + e.getMessage())));
    }
    return parse(file.toString(), text);
  }

  /** Parses configuration text; {@code fileName} only names the source in problems. */
  public DataPlaneConfig parse(String fileName, String yaml) {
    Reading reading = new Reading(fileName);
    Node root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(yaml));
    } catch (MarkedYAMLException e) {
      int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
      throw new ConfigException(
          List.of(new ConfigProblem(fileName, line, "is not valid YAML: " + e.getProblem())));
    } catch (YAMLException e) {
      throw new ConfigException(
          List.of(new ConfigProblem(fileName, 0, "is not valid YAML: " + e.getMessage())));
    }
    if (root == null) {
      throw new ConfigException(List.of(new ConfigProblem(fileName, 0, "is empty")));
    }
    DataPlaneConfig config = reading.config(root);
    if (!reading.problems.isEmpty()) {
      throw new ConfigException(reading.problems);
    }
    return config;
  }

  /** One pass over one file, collecting problems. */
  private static final class Reading {
    final String file;
    final List<ConfigProblem> problems = new ArrayList<>();

    Reading(String file) {
      this.file = file;
    }

    void problem(Node at, String message) {
      problems.add(
          new ConfigProblem(file, at == null ? 0 : at.getStartMark().getLine() + 1, message));
    }

    DataPlaneConfig config(Node root) {
      Map<String, Node> top =
          mapping(root, "the file", "connectedSystems", "syncRules", "mvoDeletion");
      List<ConnectedSystemConfig> systems = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      for (Node node : list(top, "connectedSystems", root, true)) {
        ConnectedSystemConfig system = system(node);
        if (system != null && !ids.add(system.id())) {
          problem(node, "connected system '" + system.id() + "' is defined twice");
        }
        if (system != null && !system.name().equals(system.id()) && !ids.add(system.name())) {
          problem(node, "connected system name '" + system.name() + "' is used twice");
        }
        if (system != null) {
          systems.add(system);
        }
      }
      Map<String, ConnectedSystemConfig> byId = new LinkedHashMap<>();
      systems.forEach(s -> byId.putIfAbsent(s.id(), s));

      List<InboundRule> inbound = new ArrayList<>();
      List<OutboundRule> outbound = new ArrayList<>();
      Node rulesNode = top.get("syncRules");
      if (rulesNode != null) {
        Map<String, Node> rules = mapping(rulesNode, "syncRules", "inbound", "outbound");
        Set<String> ruleIds = new HashSet<>();
        for (Node node : list(rules, "inbound", rulesNode, false)) {
          InboundRule rule = inbound(node, byId);
          if (rule != null && ruleIds.add(rule.id())) {
            inbound.add(rule);
          } else if (rule != null) {
            problem(node, "sync rule '" + rule.id() + "' is defined twice");
          }
        }
        for (Node node : list(rules, "outbound", rulesNode, false)) {
          OutboundRule rule = outbound(node, byId);
          if (rule != null && ruleIds.add(rule.id())) {
            outbound.add(rule);
          } else if (rule != null) {
            problem(node, "sync rule '" + rule.id() + "' is defined twice");
          }
        }
      }
      List<DeletionRule> deletion = new ArrayList<>();
      for (Node node : list(top, "mvoDeletion", root, false)) {
        DeletionRule rule = deletion(node, byId);
        if (rule != null) {
          deletion.add(rule);
        }
      }
      return new DataPlaneConfig(systems, new SyncRules(inbound, outbound, deletion));
    }

    ConnectedSystemConfig system(Node node) {
      Map<String, Node> map =
          mapping(
              node,
              "a connected system",
              "id",
              "name",
              "connector",
              "settings",
              "objectTypes",
              "runProfiles");
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
      Node settingsNode = map.get("settings");
      Map<String, Node> settingNodes = new LinkedHashMap<>();
      if (settingsNode != null && ldap) {
        settingNodes.putAll(
            mapping(settingsNode, label + " settings", LdapSettings.KEYS.toArray(String[]::new)));
        settingNodes.forEach(
            (key, value) -> settings.put(key, joined(value, label + " setting " + key)));
      } else if (settingsNode != null) {
        mapping(settingsNode, label + " settings", "delimiter")
            .forEach((key, value) -> settings.put(key, scalar(value, label + " setting " + key)));
        String delimiter = settings.get("delimiter");
        if (delimiter != null && delimiter.length() != 1) {
          problem(
              settingsNode, label + ": delimiter must be one character, not '" + delimiter + "'");
        }
      }
      List<ObjectTypeConfig> types = new ArrayList<>();
      for (Node typeNode : list(map, "objectTypes", node, true)) {
        ObjectTypeConfig type = objectType(typeNode, label, ldap);
        if (type != null) {
          if (types.stream().anyMatch(t -> t.name().equals(type.name()))) {
            problem(typeNode, label + ": object type '" + type.name() + "' is defined twice");
          }
          types.add(type);
        }
      }
      List<RunProfileConfig> profiles = new ArrayList<>();
      for (Node profileNode : list(map, "runProfiles", node, false)) {
        RunProfileConfig profile = runProfile(profileNode, label, types, ldap);
        if (profile != null) {
          if (profiles.stream().anyMatch(p -> p.id().equals(profile.id()))) {
            problem(profileNode, label + ": run profile '" + profile.id() + "' is defined twice");
          }
          if (profiles.stream().anyMatch(p -> p.name().equals(profile.name()))) {
            problem(
                profileNode, label + ": run profile name '" + profile.name() + "' is used twice");
          }
          profiles.add(profile);
        }
      }
      if (ldap) {
        boolean exports = profiles.stream().anyMatch(p -> p.runType() == RunType.Export);
        Set<String> attributes = new HashSet<>();
        types.forEach(t -> attributes.addAll(t.attributes()));
        for (LdapSettings.Problem p : LdapSettings.problems(settings, attributes, exports)) {
          Node at = p.key() == null ? null : settingNodes.get(p.key());
          problem(
              at != null ? at : settingsNode != null ? settingsNode : node,
              label + ": " + p.message());
        }
      }
      if (id == null || connector == null) {
        return null;
      }
      return new ConnectedSystemConfig(id, name, connector, settings, types, profiles);
    }

    ObjectTypeConfig objectType(Node node, String system, boolean ldap) {
      Map<String, Node> map =
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

    RunProfileConfig runProfile(
        Node node, String system, List<ObjectTypeConfig> types, boolean ldap) {
      Map<String, Node> map =
          mapping(node, "a run profile", "id", "name", "runType", "pageSize", "file", "objectType");
      String id = string(map, "id", node, true);
      String label = system + ", run profile '" + (id == null ? "?" : id) + "'";
      String name = Optional.ofNullable(string(map, "name", node, false)).orElse(id);
      RunType runType = enumValue(map, "runType", node, RunType.class, label);
      int pageSize = RunProfileConfig.DEFAULT_PAGE_SIZE;
      Node pageNode = map.get("pageSize");
      if (pageNode != null) {
        String text = scalar(pageNode, label + " pageSize");
        try {
          pageSize = Integer.parseInt(text);
          if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            problem(
                pageNode,
                label + ": pageSize must be between 1 and " + MAX_PAGE_SIZE + ", not " + pageSize);
          }
        } catch (NumberFormatException e) {
          problem(pageNode, label + ": pageSize must be a whole number, not '" + text + "'");
        }
      }
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
      return new RunProfileConfig(id, name, runType, pageSize, file, objectType);
    }

    InboundRule inbound(Node node, Map<String, ConnectedSystemConfig> systems) {
      Map<String, Node> map =
          mapping(
              node,
              "an inbound sync rule",
              "id",
              "system",
              "objectType",
              "mvoType",
              "project",
              "scope",
              "join",
              "flows");
      String id = string(map, "id", node, true);
      String label = "inbound sync rule '" + (id == null ? "?" : id) + "'";
      ObjectTypeConfig type = systemObjectType(map, node, systems, label);
      String mvoType = string(map, "mvoType", node, true);
      boolean project = bool(map, "project", false, label);
      List<Condition> scope = conditions(map, node, label, type);
      List<JoinPair> join = new ArrayList<>();
      for (Node pairNode : list(map, "join", node, false)) {
        Map<String, Node> pair = mapping(pairNode, "a join pair", "cso", "mvo");
        String cso = string(pair, "cso", pairNode, true);
        String mvo = string(pair, "mvo", pairNode, true);
        if (cso != null && type != null && !type.attributes().contains(cso)) {
          problem(
              pair.get("cso"),
              label + ": join attribute '" + cso + "' is not an attribute of " + type.name());
        }
        if (cso != null && mvo != null) {
          join.add(new JoinPair(cso, mvo));
        }
      }
      List<AttributeFlow> flows = flows(map, node, label, type, null);
      if (id == null || type == null || mvoType == null) {
        return null;
      }
      return new InboundRule(
          id,
          string(map, "system", node, false),
          type.name(),
          scope,
          mvoType,
          project,
          join,
          flows);
    }

    OutboundRule outbound(Node node, Map<String, ConnectedSystemConfig> systems) {
      Map<String, Node> map =
          mapping(
              node,
              "an outbound sync rule",
              "id",
              "system",
              "objectType",
              "mvoType",
              "scope",
              "flows",
              "deprovisionOnDeletion");
      String id = string(map, "id", node, true);
      String label = "outbound sync rule '" + (id == null ? "?" : id) + "'";
      ObjectTypeConfig type = systemObjectType(map, node, systems, label);
      String mvoType = string(map, "mvoType", node, true);
      List<Condition> scope = conditions(map, node, label, null);
      List<AttributeFlow> flows = flows(map, node, label, null, type);
      boolean deprovision = bool(map, "deprovisionOnDeletion", false, label);
      String systemId = string(map, "system", node, false);
      boolean ldap =
          systemId != null
              && systems.containsKey(systemId)
              && "ldap".equals(systems.get(systemId).connectorType());
      boolean anchorFilled =
          type != null && flows.stream().anyMatch(f -> f.target().equals(type.anchor()));
      if (type != null && !anchorFilled && !ldap) {
        problem(
            node, label + ": no flow fills '" + type.anchor() + "', the anchor of " + type.name());
      }
      if (id == null || type == null || mvoType == null) {
        return null;
      }
      // Without a flow to it, a directory's anchor (entryUUID) is known once the entry exists.
      return new OutboundRule(
          id,
          systemId,
          type.name(),
          type.anchor(),
          mvoType,
          scope,
          flows,
          deprovision,
          !anchorFilled);
    }

    DeletionRule deletion(Node node, Map<String, ConnectedSystemConfig> systems) {
      Map<String, Node> map =
          mapping(node, "an MVO deletion rule", "mvoType", "gracePeriod", "authoritativeSystems");
      String mvoType = string(map, "mvoType", node, true);
      String label = "MVO deletion rule for '" + (mvoType == null ? "?" : mvoType) + "'";
      Duration grace = null;
      String graceText = string(map, "gracePeriod", node, true);
      if (graceText != null) {
        try {
          grace =
              Duration.parse(
                  graceText.toUpperCase(Locale.ROOT).startsWith("P")
                      ? graceText
                      : "PT" + graceText);
          if (grace.isNegative()) {
            problem(map.get("gracePeriod"), label + ": gracePeriod must not be negative");
          }
        } catch (DateTimeParseException e) {
          problem(
              map.get("gracePeriod"),
              label
                  + ": gracePeriod '"
                  + graceText
                  + "' is not a duration (ISO-8601, e.g. P7D or PT12H)");
        }
      }
      List<String> authoritative = strings(map, "authoritativeSystems", node, true);
      for (String system : authoritative) {
        if (!systems.containsKey(system)) {
          problem(
              map.get("authoritativeSystems"),
              label + ": unknown connected system '" + system + "'");
        }
      }
      if (mvoType == null || grace == null) {
        return null;
      }
      return new DeletionRule(mvoType, grace, new HashSet<>(authoritative));
    }

    ObjectTypeConfig systemObjectType(
        Map<String, Node> map,
        Node node,
        Map<String, ConnectedSystemConfig> systems,
        String label) {
      String systemId = string(map, "system", node, true);
      String typeName = string(map, "objectType", node, true);
      if (systemId == null || typeName == null) {
        return null;
      }
      ConnectedSystemConfig system = systems.get(systemId);
      if (system == null) {
        problem(map.get("system"), label + ": unknown connected system '" + systemId + "'");
        return null;
      }
      Optional<ObjectTypeConfig> type = system.objectType(typeName);
      if (type.isEmpty()) {
        problem(
            map.get("objectType"),
            label + ": connected system '" + systemId + "' has no object type '" + typeName + "'");
        return null;
      }
      return type.get();
    }

    List<Condition> conditions(
        Map<String, Node> map, Node node, String label, ObjectTypeConfig type) {
      List<Condition> conditions = new ArrayList<>();
      for (Node conditionNode : list(map, "scope", node, false)) {
        Map<String, Node> condition =
            mapping(conditionNode, "a scope condition", "attribute", "operator", "value");
        String attribute = string(condition, "attribute", conditionNode, true);
        Condition.Operator operator =
            enumValue(condition, "operator", conditionNode, Condition.Operator.class, label);
        String value = string(condition, "value", conditionNode, false);
        if (attribute != null && type != null && !type.attributes().contains(attribute)) {
          problem(
              condition.get("attribute"),
              label
                  + ": scope attribute '"
                  + attribute
                  + "' is not an attribute of "
                  + type.name());
        }
        if (operator != null
            && value == null
            && operator != Condition.Operator.PRESENT
            && operator != Condition.Operator.ABSENT) {
          problem(conditionNode, label + ": operator " + operator + " needs a 'value'");
        }
        if (attribute != null && operator != null) {
          conditions.add(new Condition(attribute, operator, value));
        }
      }
      return conditions;
    }

    List<AttributeFlow> flows(
        Map<String, Node> map,
        Node node,
        String label,
        ObjectTypeConfig sourceType,
        ObjectTypeConfig targetType) {
      List<AttributeFlow> flows = new ArrayList<>();
      for (Node flowNode : list(map, "flows", node, false)) {
        Map<String, Node> flow = mapping(flowNode, "an attribute flow", "from", "to");
        String from = string(flow, "from", flowNode, true);
        String to = string(flow, "to", flowNode, true);
        if (from != null && sourceType != null && !sourceType.attributes().contains(from)) {
          problem(
              flow.get("from"),
              label + ": '" + from + "' is not an attribute of " + sourceType.name());
        }
        if (to != null && targetType != null && !targetType.attributes().contains(to)) {
          problem(
              flow.get("to"), label + ": '" + to + "' is not an attribute of " + targetType.name());
        }
        if (from != null && to != null) {
          flows.add(new AttributeFlow(from, to));
        }
      }
      return flows;
    }

    Map<String, Node> mapping(Node node, String what, String... allowedKeys) {
      Map<String, Node> map = new LinkedHashMap<>();
      if (!(node instanceof MappingNode mapping)) {
        problem(node, what + " must be a mapping (key: value)");
        return map;
      }
      List<String> allowed = Arrays.asList(allowedKeys);
      for (NodeTuple tuple : mapping.getValue()) {
        String key = tuple.getKeyNode() instanceof ScalarNode scalar ? scalar.getValue() : null;
        if (key == null) {
          problem(tuple.getKeyNode(), what + ": keys must be plain names");
        } else if (!allowed.contains(key)) {
          problem(
              tuple.getKeyNode(),
              what
                  + ": unknown key '"
                  + key
                  + "' (expected one of "
                  + String.join(", ", allowed)
                  + ")");
        } else if (map.put(key, tuple.getValueNode()) != null) {
          problem(tuple.getKeyNode(), what + ": '" + key + "' is given twice");
        }
      }
      return map;
    }

    List<Node> list(Map<String, Node> map, String key, Node parent, boolean required) {
      Node node = map.get(key);
      if (node == null) {
        if (required) {
          problem(parent, "'" + key + "' is missing");
        }
        return List.of();
      }
      if (!(node instanceof SequenceNode sequence)) {
        problem(node, "'" + key + "' must be a list");
        return List.of();
      }
      if (required && sequence.getValue().isEmpty()) {
        problem(node, "'" + key + "' must not be empty");
      }
      return sequence.getValue();
    }

    List<String> strings(Map<String, Node> map, String key, Node parent, boolean required) {
      List<String> values = new ArrayList<>();
      for (Node node : list(map, key, parent, required)) {
        String value = scalar(node, "'" + key + "' entries");
        if (value != null) {
          values.add(value);
        }
      }
      return values;
    }

    String string(Map<String, Node> map, String key, Node parent, boolean required) {
      Node node = map.get(key);
      if (node == null) {
        if (required) {
          problem(parent, "'" + key + "' is missing");
        }
        return null;
      }
      String value = scalar(node, "'" + key + "'");
      if (value != null && value.isBlank()) {
        if (required) {
          problem(node, "'" + key + "' must not be empty");
        }
        return null;
      }
      return value;
    }

    /** A scalar, or a list of scalars joined with commas. */
    String joined(Node node, String what) {
      if (node instanceof SequenceNode sequence) {
        List<String> values = new ArrayList<>();
        for (Node item : sequence.getValue()) {
          String value = scalar(item, what + " entries");
          if (value != null) {
            values.add(value);
          }
        }
        return String.join(",", values);
      }
      return scalar(node, what);
    }

    String scalar(Node node, String what) {
      if (node instanceof ScalarNode scalar) {
        return scalar.getValue();
      }
      problem(node, what + " must be a single value");
      return null;
    }

    boolean bool(Map<String, Node> map, String key, boolean fallback, String label) {
      Node node = map.get(key);
      if (node == null) {
        return fallback;
      }
      String value = scalar(node, "'" + key + "'");
      if ("true".equals(value)) {
        return true;
      }
      if ("false".equals(value)) {
        return false;
      }
      problem(node, label + ": '" + key + "' must be true or false, not '" + value + "'");
      return fallback;
    }

    <E extends Enum<E>> E enumValue(
        Map<String, Node> map, String key, Node parent, Class<E> type, String label) {
      String value = string(map, key, parent, true);
      if (value == null) {
        return null;
      }
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equals(value)) {
          return constant;
        }
      }
      problem(
          map.get(key),
          label
              + ": '"
              + key
              + "' must be one of "
              + Arrays.toString(type.getEnumConstants())
              + ", not '"
              + value
              + "'");
      return null;
    }
  }
}
