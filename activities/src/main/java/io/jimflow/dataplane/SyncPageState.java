package io.jimflow.dataplane;

import io.jimflow.store.CsoRow;
import io.jimflow.store.CsoState;
import io.jimflow.store.MvoRow;
import io.jimflow.sync.CsoFacts;
import io.jimflow.sync.JoinCandidates;
import io.jimflow.sync.MultiValue;
import io.jimflow.sync.MvoState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MVOs and joins one page of a synchronisation knows about, including what it changed so far:
 * what the sync engine's join questions are answered from, so a CSO can join an MVO that an earlier
 * CSO of the same page projected.
 */
final class SyncPageState implements JoinCandidates {

  private final Map<String, Set<String>> joinAttributes;
  private final Map<String, MvoRow> mvos = new HashMap<>();
  private final Map<Long, CsoFacts> facts = new HashMap<>();

  /** The connectors of the page's MVOs as stored when the page began, by MVO and CSO id. */
  private final Map<String, Map<Long, CsoRow>> stored = new HashMap<>();

  /** CSOs the page joined to its MVOs (projected from or joined), by MVO and CSO id. */
  private final Map<String, Map<Long, CsoRow>> joined = new HashMap<>();

  /** CSOs whose join the page changed: the MVO they are joined to now, or null (left). */
  private final Map<Long, String> rejoined = new HashMap<>();

  private final Set<String> changed = new LinkedHashSet<>();
  private final Map<String, Set<String>> byValue = new HashMap<>();

  /**
   * @param joinAttributes per MVO type, the attributes join rules look MVOs up by: only these are
   *     indexed for {@link #find}
   */
  SyncPageState(Map<String, Set<String>> joinAttributes) {
    this.joinAttributes = joinAttributes;
  }

  static MvoState toState(MvoRow mvo) {
    return new MvoState(mvo.id(), mvo.objectType(), mvo.attributes(), mvo.deletionEligibleAt());
  }

  /** The MVO as the page left it so far; null when the page does not know it. */
  MvoRow mvo(String id) {
    return mvos.get(id);
  }

  Set<String> mvoIds() {
    return mvos.keySet();
  }

  /** Ids of the MVOs whose attributes or deletion date the page changed, in the order changed. */
  Set<String> changed() {
    return changed;
  }

  /**
   * What the sync engine knows of a CSO of the page: its attributes parsed once for the whole page.
   */
  CsoFacts facts(CsoRow cso) {
    return facts.computeIfAbsent(
        cso.id(),
        id ->
            new CsoFacts(
                cso.connectedSystem(),
                cso.objectType(),
                cso.attributes(),
                cso.state() == CsoState.Obsolete));
  }

  /** A new MVO, projected from a CSO of the page. */
  void add(MvoRow mvo, CsoRow projectedFrom) {
    put(mvo);
    connect(mvo.id(), projectedFrom);
  }

  void putAll(Map<String, MvoRow> loaded) {
    loaded.values().forEach(this::put);
  }

  /** A CSO already joined to one of the page's MVOs, as stored. */
  void addConnector(CsoRow connector) {
    stored.computeIfAbsent(connector.mvoId(), k -> new HashMap<>()).put(connector.id(), connector);
  }

  /**
   * The CSOs joined to an MVO once the page's joins, disconnections and deletions are written, in
   * the order stored then joined by the page; empty for an MVO the page does not know.
   */
  List<CsoRow> connectors(String mvoId) {
    List<CsoRow> found = new ArrayList<>();
    for (CsoRow connector : stored.getOrDefault(mvoId, Map.of()).values()) {
      if (!rejoined.containsKey(connector.id())) {
        found.add(connector);
      }
    }
    found.addAll(joined.getOrDefault(mvoId, Map.of()).values());
    return found;
  }

  /** Keeps the value index in step with the page's MVOs, so joins find what this page projected. */
  private void put(MvoRow mvo) {
    MvoRow previous = mvos.put(mvo.id(), mvo);
    if (previous != null) {
      for (String name : joinAttributes.getOrDefault(previous.objectType(), Set.of())) {
        String value = MultiValue.normalised(previous.attributes().get(name));
        Set<String> ids =
            value == null ? null : byValue.get(key(previous.objectType(), name, value));
        if (ids != null) {
          ids.remove(mvo.id());
        }
      }
    }
    for (String name : joinAttributes.getOrDefault(mvo.objectType(), Set.of())) {
      String value = MultiValue.normalised(mvo.attributes().get(name));
      if (value != null) {
        byValue
            .computeIfAbsent(key(mvo.objectType(), name, value), k -> new LinkedHashSet<>())
            .add(mvo.id());
      }
    }
  }

  private static String key(String type, String attribute, String value) {
    return type + "\u0000" + attribute + "\u0000" + value;
  }

  /** A CSO of the page joined the MVO. */
  void connect(String mvoId, CsoRow cso) {
    leave(cso.id());
    joined.computeIfAbsent(mvoId, k -> new LinkedHashMap<>()).put(cso.id(), cso);
    rejoined.put(cso.id(), mvoId);
  }

  /**
   * A CSO of the page left its MVO (disconnected or deleted). Join questions of later CSOs of the
   * page still see it, as they did before the page wrote anything.
   */
  void leave(long csoId) {
    String previous = rejoined.put(csoId, null);
    if (previous != null) {
      joined.get(previous).remove(csoId);
    }
  }

  /** Applies attribute changes (a null value removes the attribute) and marks the MVO changed. */
  void changeMvo(String mvoId, Map<String, String> changes) {
    if (changes.isEmpty()) {
      return;
    }
    MvoRow mvo = mvos.get(mvoId);
    Map<String, String> attributes = new HashMap<>(mvo.attributes());
    changes.forEach(
        (name, value) -> {
          if (value == null) {
            attributes.remove(name);
          } else {
            attributes.put(name, value);
          }
        });
    put(new MvoRow(mvoId, mvo.objectType(), attributes, mvo.deletionEligibleAt()));
    changed.add(mvoId);
  }

  /** Replaces the MVO's deletion date and marks it changed. */
  void scheduleDeletion(MvoRow mvo, Instant eligibleAt) {
    put(new MvoRow(mvo.id(), mvo.objectType(), mvo.attributes(), eligibleAt));
    changed.add(mvo.id());
  }

  @Override
  public List<MvoState> find(String mvoType, String mvoAttribute, String value) {
    List<MvoState> found = new ArrayList<>();
    String wanted = MultiValue.normalised(value);
    if (wanted == null) {
      return found;
    }
    for (String id : byValue.getOrDefault(key(mvoType, mvoAttribute, wanted), Set.of())) {
      found.add(toState(mvos.get(id)));
    }
    return found;
  }

  @Override
  public boolean hasConnectorIn(String mvoId, String connectedSystem) {
    return hasConnectorIn(stored.get(mvoId), connectedSystem)
        || hasConnectorIn(joined.get(mvoId), connectedSystem);
  }

  private static boolean hasConnectorIn(Map<Long, CsoRow> connectors, String connectedSystem) {
    if (connectors != null) {
      for (CsoRow connector : connectors.values()) {
        if (connector.connectedSystem().equals(connectedSystem)) {
          return true;
        }
      }
    }
    return false;
  }
}
