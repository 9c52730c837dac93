package io.jimflow.sync;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Splits one page of a synchronisation into partitions that never touch the same metaverse
 * identity, so that each can be written on a store connection of its own with the same result as
 * the whole page in order on one.
 *
 * <p>Two CSOs of a page land in the same partition when they are linked, directly or through
 * others, by anything one could change that the other reads:
 *
 * <ul>
 *   <li>the MVO a CSO is joined to (its flows, disconnection, deletion date and provisioning);
 *   <li>a join key (MVO type, join attribute, value): the keys an unjoined CSO looks MVOs up by,
 *       the keys its flows give the MVO it projects, joins or flows to, and the keys each MVO of
 *       the page has now (so a CSO and the MVO its lookup finds meet there, whichever join pair
 *       finds it, and a CSO that moves an MVO's key away meets the CSO that looks for it);
 *   <li>a target anchor (system, object type, anchor) the provisioning of an MVO would create, from
 *       its current attributes or the CSO's flows: two MVOs that would take the same anchor are
 *       decided in page order, as on one connection.
 * </ul>
 *
 * Linking more than needed only costs parallelism; linking less would let two connections race, so
 * every value either side could hold is linked. Within a partition CSOs keep their page order.
 */
public final class SyncPartitions {

  /** A CSO of the page: what it holds and the MVO it is joined to (null for none). */
  public record PageCso(long id, CsoFacts facts, String mvoId) {}

  private final SyncEngine engine;
  private final Map<String, Set<String>> joinAttributes;

  public SyncPartitions(SyncEngine engine) {
    this.engine = engine;
    this.joinAttributes = engine.joinAttributes();
  }

  /**
   * The page's CSO ids in at most {@code count} partitions, each in page order; linked CSOs are
   * always in the same one. Partitions are filled largest group first into the least filled one, so
   * the result depends only on the page and the MVOs, never on timing.
   *
   * @param page the page's CSOs, in page order
   * @param mvos the MVOs the page's CSOs are joined to or may join, as stored when the page began
   */
  public List<List<Long>> partition(List<PageCso> page, Collection<MvoState> mvos, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("a page needs at least one partition, not " + count);
    }
    Links links = new Links();
    for (MvoState mvo : mvos) {
      String node = "mvo\u0000" + mvo.id();
      keys(mvo.type(), mvo.attributes()).forEach(k -> links.union(node, k));
    }
    for (PageCso cso : page) {
      String node = "cso\u0000" + cso.id();
      links.union(node, node);
      if (cso.mvoId() != null) {
        links.union(node, "mvo\u0000" + cso.mvoId());
      }
      if (cso.facts().obsolete()) {
        continue;
      }
      Optional<InboundRule> rule = engine.inboundRuleInScope(cso.facts());
      if (rule.isEmpty()) {
        continue;
      }
      Map<String, String> attributes = cso.facts().attributes();
      String type = rule.get().mvoType();
      for (JoinPair pair : rule.get().join()) {
        key(type, pair.mvoAttribute(), SyncEngine.value(attributes, pair.csoAttribute()))
            .ifPresent(k -> links.union(node, k));
      }
      Map<String, String> flowed = new HashMap<>();
      for (AttributeFlow flow : rule.get().flows()) {
        String value = SyncEngine.value(attributes, flow.source());
        if (value != null) {
          flowed.put(flow.target(), value);
        }
      }
      keys(type, flowed).forEach(k -> links.union(node, k));
    }
    Map<String, List<Long>> groups = new LinkedHashMap<>();
    for (PageCso cso : page) {
      groups
          .computeIfAbsent(links.find("cso\u0000" + cso.id()), g -> new ArrayList<>())
          .add(cso.id());
    }
    List<List<Long>> bySize = new ArrayList<>(groups.values());
    bySize.sort(Comparator.comparingInt((List<Long> g) -> -g.size()));
    List<Integer> sizes = new ArrayList<>();
    Map<Long, Integer> partitionOf = new HashMap<>();
    for (List<Long> group : bySize) {
      int target = sizes.size();
      if (sizes.size() < count) {
        sizes.add(0);
      } else {
        target = sizes.indexOf(sizes.stream().min(Integer::compare).orElseThrow());
      }
      sizes.set(target, sizes.get(target) + group.size());
      for (long id : group) {
        partitionOf.put(id, target);
      }
    }
    // In page order, and the partitions in the order of their first CSO.
    Map<Integer, List<Long>> byPartition = new LinkedHashMap<>();
    for (PageCso cso : page) {
      byPartition.computeIfAbsent(partitionOf.get(cso.id()), p -> new ArrayList<>()).add(cso.id());
    }
    List<List<Long>> partitions = new ArrayList<>(byPartition.values());
    return partitions;
  }

  /** The join keys and target anchors MVO attributes of a type give. */
  private List<String> keys(String type, Map<String, String> attributes) {
    List<String> keys = new ArrayList<>();
    for (String attribute : joinAttributes.getOrDefault(type, Set.of())) {
      key(type, attribute, SyncEngine.value(attributes, attribute)).ifPresent(keys::add);
    }
    for (OutboundRule rule : engine.outboundRulesFor(type)) {
      if (rule.anchorAssignedByTarget()) {
        continue;
      }
      for (AttributeFlow flow : rule.flows()) {
        String value = SyncEngine.value(attributes, flow.source());
        if (flow.target().equals(rule.anchorAttribute()) && value != null) {
          keys.add(
              "anchor\u0000"
                  + rule.connectedSystem()
                  + "\u0000"
                  + rule.objectType()
                  + "\u0000"
                  + value);
        }
      }
    }
    return keys;
  }

  private static Optional<String> key(String type, String attribute, String value) {
    return value == null
        ? Optional.empty()
        : Optional.of("key\u0000" + type + "\u0000" + attribute + "\u0000" + value);
  }

  /** Union-find over the page's nodes (CSOs, MVOs, keys). */
  private static final class Links {
    private final Map<String, String> parent = new HashMap<>();

    String find(String node) {
      String root = node;
      while (true) {
        String up = parent.getOrDefault(root, root);
        if (up.equals(root)) {
          break;
        }
        root = up;
      }
      // Path compression: later finds of these nodes take one step.
      String current = node;
      while (!current.equals(root)) {
        String up = parent.get(current);
        parent.put(current, root);
        current = up;
      }
      return root;
    }

    void union(String a, String b) {
      String ra = find(a);
      String rb = find(b);
      if (!ra.equals(rb)) {
        parent.put(rb, ra);
      }
    }
  }
}
