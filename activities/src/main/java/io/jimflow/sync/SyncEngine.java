package io.jimflow.sync;

import io.jimflow.sync.InboundDecision.Kind;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The synchronisation's decisions: scoping, projection, join, attribute flow, provisioning,
 * disconnection, deletion scheduling, export confirmation and drift detection.
 *
 * <p>Pure and deterministic: no I/O, no clock (callers pass "now"), no state besides the rules.
 * Callers look up what a decision needs (joined MVO, join candidates, target state) beforehand.
 * Empty and missing attribute values are the same thing here, as they are in a CSV file; several
 * values of one attribute ({@link MultiValue}) compare as a set.
 */
public final class SyncEngine {

  private final SyncRules rules;

  public SyncEngine(SyncRules rules) {
    this.rules = rules;
  }

  public SyncRules rules() {
    return rules;
  }

  /** Per MVO type, the attributes its join rules look MVOs up by. */
  public Map<String, Set<String>> joinAttributes() {
    Map<String, Set<String>> attributes = new HashMap<>();
    for (InboundRule rule : rules.inbound()) {
      for (JoinPair pair : rule.join()) {
        attributes.computeIfAbsent(rule.mvoType(), t -> new HashSet<>()).add(pair.mvoAttribute());
      }
    }
    return attributes;
  }

  /** The first inbound rule of the CSO's system and type whose scope it matches. */
  public Optional<InboundRule> inboundRuleInScope(CsoFacts cso) {
    return rules.inbound().stream()
        .filter(r -> r.connectedSystem().equals(cso.connectedSystem()))
        .filter(r -> r.objectType().equals(cso.objectType()))
        .filter(r -> r.inScope(cso.attributes()))
        .findFirst();
  }

  private boolean hasInboundRules(CsoFacts cso) {
    return rules.inbound().stream()
        .anyMatch(
            r ->
                r.connectedSystem().equals(cso.connectedSystem())
                    && r.objectType().equals(cso.objectType()));
  }

  /**
   * Decides what to do with one CSO.
   *
   * @param joined the MVO the CSO is joined to, or null
   * @param candidates join lookups; consulted only for an unjoined CSO in scope
   */
  public InboundDecision decideInbound(CsoFacts cso, MvoState joined, JoinCandidates candidates) {
    if (cso.obsolete()) {
      return joined == null
          ? InboundDecision.none(null)
          : new InboundDecision(Kind.DISCONNECT, joined.id(), Map.of(), null, null);
    }
    Optional<InboundRule> rule = inboundRuleInScope(cso);
    if (joined != null) {
      if (rule.isEmpty()) {
        // A CSO whose system has no inbound rule (e.g. a provisioned target object) stays joined.
        return hasInboundRules(cso)
            ? new InboundDecision(Kind.DISCONNECT_OUT_OF_SCOPE, joined.id(), Map.of(), null, null)
            : InboundDecision.none(joined.id());
      }
      Map<String, String> changes = flowInbound(rule.get(), cso.attributes(), joined.attributes());
      return changes.isEmpty()
          ? InboundDecision.none(joined.id())
          : new InboundDecision(Kind.FLOW, joined.id(), changes, null, null);
    }
    if (rule.isEmpty()) {
      return InboundDecision.none(null);
    }
    InboundRule inScope = rule.get();
    for (JoinPair pair : inScope.join()) {
      String value = value(cso.attributes(), pair.csoAttribute());
      if (value == null) {
        continue;
      }
      List<MvoState> found = candidates.find(inScope.mvoType(), pair.mvoAttribute(), value);
      if (found.size() > 1) {
        return InboundDecision.error(
            "AmbiguousJoin",
            found.size()
                + " "
                + inScope.mvoType()
                + " objects have "
                + pair.mvoAttribute()
                + " = "
                + value);
      }
      if (found.size() == 1) {
        MvoState target = found.get(0);
        if (candidates.hasConnectorIn(target.id(), cso.connectedSystem())) {
          return InboundDecision.error(
              "ExistingJoin",
              "the "
                  + inScope.mvoType()
                  + " with "
                  + pair.mvoAttribute()
                  + " = "
                  + value
                  + " is already joined to another object of "
                  + cso.connectedSystem());
        }
        return new InboundDecision(
            Kind.JOIN,
            target.id(),
            flowInbound(inScope, cso.attributes(), target.attributes()),
            null,
            null);
      }
    }
    if (!inScope.project()) {
      return InboundDecision.none(null);
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    flowInbound(inScope, cso.attributes(), Map.of())
        .forEach(
            (name, v) -> {
              if (v != null) {
                attributes.put(name, v);
              }
            });
    return new InboundDecision(Kind.PROJECT, null, attributes, null, null);
  }

  /**
   * The MVO attribute changes an inbound rule's flows make: target → new value, null to remove;
   * only values that differ from the MVO's.
   */
  public static Map<String, String> flowInbound(
      InboundRule rule, Map<String, String> csoAttributes, Map<String, String> mvoAttributes) {
    Map<String, String> changes = new HashMap<>();
    for (AttributeFlow flow : rule.flows()) {
      String value = value(csoAttributes, flow.source());
      if (!Objects.equals(value, value(mvoAttributes, flow.target()))) {
        changes.put(flow.target(), value);
      }
    }
    return changes;
  }

  /** Outbound rules that apply to MVOs of a type. */
  public List<OutboundRule> outboundRulesFor(String mvoType) {
    return rules.outbound().stream().filter(r -> r.mvoType().equals(mvoType)).toList();
  }

  /** The deletion rule of an MVO type, if it has one (without one, MVOs are never deleted). */
  public Optional<DeletionRule> deletionRuleFor(String mvoType) {
    return rules.deletion().stream().filter(r -> r.mvoType().equals(mvoType)).findFirst();
  }

  /**
   * Decides what one target system needs for one MVO.
   *
   * @param mvo null when the MVO is being deleted
   * @param target null when the MVO has no object in the target system yet
   */
  public static OutboundDecision decideOutbound(
      OutboundRule rule, MvoState mvo, TargetFacts target) {
    if (mvo == null || !rule.inScope(mvo.attributes())) {
      if (target != null && rule.deprovisionOnDeletion() && !target.deletionPending()) {
        return new OutboundDecision(OutboundDecision.Kind.DEPROVISION, null, Map.of(), null, null);
      }
      return OutboundDecision.NONE;
    }
    Map<String, String> desired = flowOutbound(rule, mvo.attributes());
    if (target == null || target.deletionPending()) {
      String anchor =
          rule.anchorAssignedByTarget()
              ? OutboundRule.PROVISIONAL_ANCHOR + mvo.id()
              : value(desired, rule.anchorAttribute());
      if (anchor == null) {
        return new OutboundDecision(
            OutboundDecision.Kind.ERROR,
            null,
            Map.of(),
            "MissingAnchor",
            "no value flows to "
                + rule.anchorAttribute()
                + ", the anchor of "
                + rule.connectedSystem());
      }
      return new OutboundDecision(OutboundDecision.Kind.PROVISION, anchor, desired, null, null);
    }
    Map<String, String> expected = new HashMap<>(target.attributes());
    expected.putAll(target.pendingValues());
    Map<String, String> changes = differences(desired, expected);
    return changes.isEmpty()
        ? OutboundDecision.NONE
        : new OutboundDecision(OutboundDecision.Kind.UPDATE, null, changes, null, null);
  }

  /** What an outbound rule's flows give the target: target attribute → value ("" when none). */
  public static Map<String, String> flowOutbound(
      OutboundRule rule, Map<String, String> mvoAttributes) {
    Map<String, String> desired = new LinkedHashMap<>();
    for (AttributeFlow flow : rule.flows()) {
      String value = value(mvoAttributes, flow.source());
      desired.put(flow.target(), value == null ? "" : value);
    }
    return desired;
  }

  /**
   * Drift: values a target holds that differ from what the MVO flows out. Call it for a confirming
   * import's object that has no unconfirmed export; the result is the corrective export's values.
   */
  public static Map<String, String> detectDrift(
      OutboundRule rule, MvoState mvo, Map<String, String> importedAttributes) {
    if (mvo == null || !rule.inScope(mvo.attributes())) {
      return Map.of();
    }
    return differences(flowOutbound(rule, mvo.attributes()), importedAttributes);
  }

  /**
   * Whether a confirming import shows an export applied: its values are there (Create, Update), or
   * the object is gone (Delete).
   *
   * @param imported the object's attributes as imported now, or null when the import did not find
   *     it
   */
  public static boolean isConfirmed(
      ExportChange change, Map<String, String> exported, Map<String, String> imported) {
    if (change == ExportChange.Delete) {
      return imported == null;
    }
    return imported != null && differences(exported, imported).isEmpty();
  }

  /**
   * When an MVO becomes eligible for deletion, given the systems its remaining CSOs belong to: null
   * while an authoritative system still holds it (or its type has no deletion rule); else its
   * existing date, or now plus the grace period.
   */
  public Instant deletionEligibleAt(
      MvoState mvo, Collection<String> remainingSystems, Instant now) {
    Optional<DeletionRule> rule = deletionRuleFor(mvo.type());
    if (rule.isEmpty()
        || remainingSystems.stream().anyMatch(rule.get().authoritativeSystems()::contains)) {
      return null;
    }
    return mvo.deletionEligibleAt() != null
        ? mvo.deletionEligibleAt()
        : now.plus(rule.get().gracePeriod());
  }

  /** A row of a target file after an export: null when deleted. */
  public static Map<String, String> applyExport(
      Map<String, String> row, ExportChange change, Map<String, String> values) {
    if (change == ExportChange.Delete) {
      return null;
    }
    Map<String, String> result = new LinkedHashMap<>(row == null ? Map.of() : row);
    result.putAll(values);
    return result;
  }

  private static Map<String, String> differences(
      Map<String, String> desired, Map<String, String> actual) {
    Map<String, String> changes = new LinkedHashMap<>();
    desired.forEach(
        (name, value) -> {
          if (!Objects.equals(normalise(value), value(actual, name))) {
            changes.put(name, value == null ? "" : value);
          }
        });
    return changes;
  }

  static String value(Map<String, String> attributes, String name) {
    return normalise(attributes.get(name));
  }

  private static String normalise(String value) {
    // Several values compare as a set: their order is no difference.
    return MultiValue.normalised(value);
  }
}
