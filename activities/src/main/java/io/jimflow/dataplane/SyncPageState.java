package io.jimflow.dataplane;

import io.jimflow.store.CsoRow;
import io.jimflow.store.MvoRow;
import io.jimflow.sync.JoinCandidates;
import io.jimflow.sync.MvoState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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

  private final Map<String, MvoRow> mvos = new HashMap<>();
  private final Map<String, Map<String, CsoRow>> connectors = new HashMap<>();
  private final Map<String, Set<String>> addedConnectors = new HashMap<>();
  private final Set<String> changed = new LinkedHashSet<>();
  private final Map<String, Set<String>> byValue = new HashMap<>();

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

  /** A new MVO, projected from a CSO of the system. */
  void add(MvoRow mvo, String system) {
    put(mvo);
    connect(mvo.id(), system);
  }

  void putAll(Map<String, MvoRow> loaded) {
    loaded.values().forEach(this::put);
  }

  /** A CSO already joined to one of the page's MVOs, as stored. */
  void addConnector(CsoRow connector) {
    connectors
        .computeIfAbsent(connector.mvoId(), k -> new HashMap<>())
        .put(connector.connectedSystem(), connector);
  }

  /** Keeps the value index in step with the page's MVOs, so joins find what this page projected. */
  private void put(MvoRow mvo) {
    MvoRow previous = mvos.put(mvo.id(), mvo);
    if (previous != null) {
      previous
          .attributes()
          .forEach(
              (name, value) -> {
                Set<String> ids = byValue.get(key(previous.objectType(), name, value));
                if (ids != null) {
                  ids.remove(mvo.id());
                }
              });
    }
    mvo.attributes()
        .forEach(
            (name, value) ->
                byValue
                    .computeIfAbsent(key(mvo.objectType(), name, value), k -> new LinkedHashSet<>())
                    .add(mvo.id()));
  }

  private static String key(String type, String attribute, String value) {
    return type + "\u0000" + attribute + "\u0000" + value;
  }

  /** A CSO of the system joined the MVO in this page. */
  void connect(String mvoId, String system) {
    addedConnectors.computeIfAbsent(mvoId, k -> new HashSet<>()).add(system);
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
    for (String id : byValue.getOrDefault(key(mvoType, mvoAttribute, value), Set.of())) {
      found.add(toState(mvos.get(id)));
    }
    return found;
  }

  @Override
  public boolean hasConnectorIn(String mvoId, String connectedSystem) {
    return connectors.getOrDefault(mvoId, Map.of()).containsKey(connectedSystem)
        || addedConnectors.getOrDefault(mvoId, Set.of()).contains(connectedSystem);
  }
}
