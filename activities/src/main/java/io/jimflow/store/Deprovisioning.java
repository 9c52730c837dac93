package io.jimflow.store;

import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.sync.DeprovisioningChoices;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import io.jimflow.sync.TargetFacts;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deletion of MVOs whose grace period has passed, the same for synchronisation and for
 * housekeeping: a Delete export for every target object an outbound rule deprovisions, then the
 * MVO. Which target objects are deprovisioned is {@link DeprovisioningChoices}' decision; this
 * class reads its facts and writes what it chose. Who records the deletion in the change history,
 * and how, is the caller's business.
 */
public final class Deprovisioning {

  private final SyncEngine engine;
  private final Metaverse metaverse;
  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;

  /**
   * @param engine the configured sync rules (their outbound rules decide what is deprovisioned)
   */
  public Deprovisioning(SyncEngine engine, Repositories repositories) {
    this.engine = engine;
    this.metaverse = repositories.metaverse();
    this.connectorSpace = repositories.connectorSpace();
    this.pendingExports = repositories.pendingExports();
  }

  /** An MVO deleted, with the target objects its deletion deprovisioned (in rule order). */
  public record MvoDeletion(MvoRow mvo, List<CsoRow> deprovisioned) {}

  /**
   * Deletes these MVOs in the caller's transaction, after queueing a Delete export (written by
   * {@code runRecordId}) for each target object that an outbound rule deprovisions.
   *
   * @return the deletions in the order of {@code due}
   */
  public List<MvoDeletion> delete(Connection connection, List<MvoRow> due, String runRecordId)
      throws SQLException {
    if (due.isEmpty()) {
      return List.of();
    }
    List<String> ids = due.stream().map(MvoRow::id).toList();
    Map<String, Map<String, CsoRow>> targets = new HashMap<>();
    for (CsoRow connector : connectorSpace.findByMvoIds(connection, ids)) {
      targets
          .computeIfAbsent(connector.mvoId(), k -> new HashMap<>())
          .put(connector.connectedSystem(), connector);
    }
    List<Long> targetIds = new ArrayList<>();
    targets.values().forEach(m -> m.values().forEach(t -> targetIds.add(t.id())));
    Map<Long, List<PendingExportRow>> open = pendingExports.findOpenByCso(connection, targetIds);
    List<NewPendingExport> deletes = new ArrayList<>();
    List<MvoDeletion> deletions = new ArrayList<>();
    for (MvoRow mvo : due) {
      Map<String, CsoRow> mvoTargets = targets.getOrDefault(mvo.id(), Map.of());
      Map<String, TargetFacts> facts = new HashMap<>();
      mvoTargets.forEach(
          (system, target) ->
              facts.put(
                  system,
                  PendingExports.targetFacts(target, open.getOrDefault(target.id(), List.of()))));
      List<CsoRow> deprovisioned = new ArrayList<>();
      for (OutboundRule rule :
          DeprovisioningChoices.deprovisioned(engine.outboundRulesFor(mvo.objectType()), facts)) {
        CsoRow target = mvoTargets.get(rule.connectedSystem());
        deletes.add(
            new NewPendingExport(
                rule.connectedSystem(),
                target.id(),
                mvo.id(),
                ExportChange.Delete,
                Map.of(),
                false,
                runRecordId));
        deprovisioned.add(target);
      }
      deletions.add(new MvoDeletion(mvo, List.copyOf(deprovisioned)));
    }
    pendingExports.insert(connection, deletes);
    metaverse.delete(connection, ids);
    return deletions;
  }
}
