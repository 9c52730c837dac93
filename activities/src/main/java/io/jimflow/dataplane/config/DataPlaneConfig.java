package io.jimflow.dataplane.config;

import io.jimflow.sync.SyncRules;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The connected systems and sync rules of {@code config/connected-systems.yaml}, validated. */
public record DataPlaneConfig(List<ConnectedSystemConfig> connectedSystems, SyncRules syncRules) {

  public DataPlaneConfig {
    connectedSystems = List.copyOf(connectedSystems);
  }

  /** The connected system with this id, or else with this name (schedules may use either). */
  public Optional<ConnectedSystemConfig> system(String idOrName) {
    return connectedSystems.stream()
        .filter(s -> s.id().equals(idOrName))
        .findFirst()
        .or(() -> connectedSystems.stream().filter(s -> s.name().equals(idOrName)).findFirst());
  }

  /** The connected systems' names by their ids, in the file's order. */
  public Map<String, String> systemNames() {
    Map<String, String> names = new LinkedHashMap<>();
    connectedSystems.forEach(s -> names.put(s.id(), s.name()));
    return names;
  }

  /** Per MVO type, the attributes inbound join rules match on (what the store must index). */
  public Map<String, Set<String>> joinKeyAttributes() {
    Map<String, Set<String>> keys = new HashMap<>();
    syncRules
        .inbound()
        .forEach(
            rule ->
                rule.join()
                    .forEach(
                        pair ->
                            keys.computeIfAbsent(rule.mvoType(), t -> new HashSet<>())
                                .add(pair.mvoAttribute())));
    return keys;
  }
}
