package io.jimflow.dataplane.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Problems;
import io.jimflow.sync.AttributeFlow;
import io.jimflow.sync.Condition;
import io.jimflow.sync.DeletionRule;
import io.jimflow.sync.InboundRule;
import io.jimflow.sync.JoinPair;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncRules;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the sync rules and MVO deletion rules of {@code connected-systems.yaml}, each checked
 * against the connected systems read before them (systems, object types and attributes must exist).
 */
final class SyncRulesReader extends NodeReading {

  SyncRulesReader(Problems problems) {
    super(problems);
  }

  /** The {@code syncRules} and {@code mvoDeletion} of the file's top-level keys. */
  SyncRules rules(
      Map<String, ConfigNode> top, ConfigNode root, Map<String, ConnectedSystemConfig> byId) {
    List<InboundRule> inbound = new ArrayList<>();
    List<OutboundRule> outbound = new ArrayList<>();
    ConfigNode rulesNode = top.get("syncRules");
    if (rulesNode != null) {
      Map<String, ConfigNode> rules = mapping(rulesNode, "syncRules", "inbound", "outbound");
      Set<String> ruleIds = new HashSet<>();
      for (ConfigNode node : list(rules, "inbound", rulesNode, false)) {
        InboundRule rule = inbound(node, byId);
        if (rule != null && ruleIds.add(rule.id())) {
          inbound.add(rule);
        } else if (rule != null) {
          problem(node, "sync rule '" + rule.id() + "' is defined twice");
        }
      }
      for (ConfigNode node : list(rules, "outbound", rulesNode, false)) {
        OutboundRule rule = outbound(node, byId);
        if (rule != null && ruleIds.add(rule.id())) {
          outbound.add(rule);
        } else if (rule != null) {
          problem(node, "sync rule '" + rule.id() + "' is defined twice");
        }
      }
    }
    List<DeletionRule> deletion = new ArrayList<>();
    for (ConfigNode node : list(top, "mvoDeletion", root, false)) {
      DeletionRule rule = deletion(node, byId);
      if (rule != null) {
        deletion.add(rule);
      }
    }
    return new SyncRules(inbound, outbound, deletion);
  }

  /**
   * What inbound and outbound rules both start with, read in this order: the rule's keys (the
   * common ones, then {@code moreKeys}), its id, its connected system's object type and its MVO
   * type. Null where missing or wrong (a problem is recorded).
   */
  private record RuleHead(
      Map<String, ConfigNode> map, String id, String label, ObjectTypeConfig type, String mvoType) {

    boolean complete() {
      return id != null && type != null && mvoType != null;
    }
  }

  private RuleHead head(
      ConfigNode node,
      String direction,
      Map<String, ConnectedSystemConfig> systems,
      String... moreKeys) {
    List<String> keys = new ArrayList<>(List.of("id", "system", "objectType", "mvoType"));
    keys.addAll(List.of(moreKeys));
    Map<String, ConfigNode> map =
        mapping(node, "an " + direction + " sync rule", keys.toArray(String[]::new));
    String id = string(map, "id", node, true);
    String label = direction + " sync rule '" + (id == null ? "?" : id) + "'";
    ObjectTypeConfig type = systemObjectType(map, node, systems, label);
    return new RuleHead(map, id, label, type, string(map, "mvoType", node, true));
  }

  private InboundRule inbound(ConfigNode node, Map<String, ConnectedSystemConfig> systems) {
    RuleHead head = head(node, "inbound", systems, "project", "scope", "join", "flows");
    Map<String, ConfigNode> map = head.map();
    String label = head.label();
    ObjectTypeConfig type = head.type();
    boolean project = bool(map, "project", false, label);
    List<Condition> scope = conditions(map, node, label, type);
    List<JoinPair> join = new ArrayList<>();
    for (ConfigNode pairNode : list(map, "join", node, false)) {
      Map<String, ConfigNode> pair = mapping(pairNode, "a join pair", "cso", "mvo");
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
    if (!head.complete()) {
      return null;
    }
    return new InboundRule(
        head.id(),
        string(map, "system", node, false),
        type.name(),
        scope,
        head.mvoType(),
        project,
        join,
        flows);
  }

  private OutboundRule outbound(ConfigNode node, Map<String, ConnectedSystemConfig> systems) {
    RuleHead head = head(node, "outbound", systems, "scope", "flows", "deprovisionOnDeletion");
    Map<String, ConfigNode> map = head.map();
    String label = head.label();
    ObjectTypeConfig type = head.type();
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
    if (!head.complete()) {
      return null;
    }
    // Without a flow to it, a directory's anchor (entryUUID) is known once the entry exists.
    return new OutboundRule(
        head.id(),
        systemId,
        type.name(),
        type.anchor(),
        head.mvoType(),
        scope,
        flows,
        deprovision,
        !anchorFilled);
  }

  private DeletionRule deletion(ConfigNode node, Map<String, ConnectedSystemConfig> systems) {
    Map<String, ConfigNode> map =
        mapping(node, "an MVO deletion rule", "mvoType", "gracePeriod", "authoritativeSystems");
    String mvoType = string(map, "mvoType", node, true);
    String label = "MVO deletion rule for '" + (mvoType == null ? "?" : mvoType) + "'";
    Duration grace = null;
    String graceText = string(map, "gracePeriod", node, true);
    if (graceText != null) {
      try {
        grace =
            Duration.parse(
                graceText.toUpperCase(Locale.ROOT).startsWith("P") ? graceText : "PT" + graceText);
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
            map.get("authoritativeSystems"), label + ": unknown connected system '" + system + "'");
      }
    }
    if (mvoType == null || grace == null) {
      return null;
    }
    return new DeletionRule(mvoType, grace, new HashSet<>(authoritative));
  }

  private ObjectTypeConfig systemObjectType(
      Map<String, ConfigNode> map,
      ConfigNode node,
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

  private List<Condition> conditions(
      Map<String, ConfigNode> map, ConfigNode node, String label, ObjectTypeConfig type) {
    List<Condition> conditions = new ArrayList<>();
    for (ConfigNode conditionNode : list(map, "scope", node, false)) {
      Map<String, ConfigNode> condition =
          mapping(conditionNode, "a scope condition", "attribute", "operator", "value");
      String attribute = string(condition, "attribute", conditionNode, true);
      Condition.Operator operator =
          enumValue(condition, "operator", conditionNode, Condition.Operator.class, label);
      String value = string(condition, "value", conditionNode, false);
      if (attribute != null && type != null && !type.attributes().contains(attribute)) {
        problem(
            condition.get("attribute"),
            label + ": scope attribute '" + attribute + "' is not an attribute of " + type.name());
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

  private List<AttributeFlow> flows(
      Map<String, ConfigNode> map,
      ConfigNode node,
      String label,
      ObjectTypeConfig sourceType,
      ObjectTypeConfig targetType) {
    List<AttributeFlow> flows = new ArrayList<>();
    for (ConfigNode flowNode : list(map, "flows", node, false)) {
      Map<String, ConfigNode> flow = mapping(flowNode, "an attribute flow", "from", "to");
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
}
