package io.jimflow.dataplane;

import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.CsoRow;
import io.jimflow.store.CsoState;
import io.jimflow.store.ExportStatus;
import io.jimflow.store.MvoRow;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.store.PendingExports.Replacement;
import io.jimflow.store.Total;
import io.jimflow.store.Transaction;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.OutboundDecision;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outbound phase of a synchronisation page: for each MVO the page created or changed, what the
 * outbound rules' target systems need (a new object, an update, a deletion), queued as pending
 * exports; provisioned objects get their CSO in the target's connector space right away.
 */
final class Provisioning {

  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;
  private final SyncEngine engine;

  Provisioning(ConnectorSpace connectorSpace, PendingExports pendingExports, SyncEngine engine) {
    this.connectorSpace = connectorSpace;
    this.pendingExports = pendingExports;
    this.engine = engine;
  }

  /** Decides and queues what target systems need for the MVOs this page created or changed. */
  void provision(
      Transaction transaction,
      RunContext run,
      Set<String> mvoIds,
      SyncPageState state,
      RunContext.Page page) {
    if (mvoIds.isEmpty() || engine.rules().outbound().isEmpty()) {
      return;
    }
    Targets targets = Targets.of(transaction, pendingExports, engine, mvoIds, state);
    Queue queue = new Queue(run.runId, page);
    List<Replacement> replacements = new ArrayList<>();
    for (String mvoId : mvoIds) {
      MvoRow mvo = state.mvo(mvoId);
      if (mvo == null) {
        continue;
      }
      for (OutboundRule rule : engine.outboundRulesFor(mvo.objectType())) {
        CsoRow target = targets.target(mvoId, rule.connectedSystem());
        List<PendingExportRow> outstanding = targets.outstanding(target);
        OutboundDecision decision =
            SyncEngine.decideOutbound(
                rule,
                SyncPageState.toState(mvo),
                target == null ? null : PendingExports.targetFacts(target, outstanding));
        switch (decision.kind()) {
          case PROVISION -> queue.provision(rule, mvoId, target, decision);
          case UPDATE -> {
            PendingExportRow waiting = waitingUpdate(outstanding);
            if (waiting != null) {
              Map<String, String> merged = new LinkedHashMap<>(waiting.attributes());
              merged.putAll(decision.attributes());
              replacements.add(new Replacement(waiting.id(), waiting.change(), merged));
            } else {
              queue.export(rule, target, mvoId, ExportChange.Update, decision.attributes());
            }
          }
          case DEPROVISION -> {
            queue.export(rule, target, mvoId, ExportChange.Delete, Map.of());
            page.change(target.anchor(), target.id(), mvoId, ChangeType.Deprovisioned);
          }
          case ERROR ->
              page.error(
                  mvoId,
                  null,
                  decision.errorType(),
                  rule.connectedSystem() + ": " + decision.errorMessage());
          case NONE -> {}
        }
      }
    }
    transaction.run(c -> pendingExports.replace(c, replacements));
    insertProvisioned(transaction, queue, page);
    transaction.run(c -> pendingExports.insert(c, queue.exports));
  }

  /** The newest export still pending that is not a deletion: an update merges into it. */
  private static PendingExportRow waitingUpdate(List<PendingExportRow> outstanding) {
    return outstanding.stream()
        .filter(e -> e.status() == ExportStatus.Pending && e.change() != ExportChange.Delete)
        .reduce((a, b) -> b)
        .orElse(null);
  }

  /** The CSOs the MVOs have in target systems, by system, and their exports not yet confirmed. */
  private record Targets(
      Map<String, Map<String, CsoRow>> byMvo, Map<Long, List<PendingExportRow>> open) {

    /**
     * The targets as the page's state knows them (its own joins, disconnections and deletions
     * applied), and the open exports of those in the outbound rules' systems: read only for MVOs
     * that have a target already, so a first synchronisation, whose MVOs are all new, reads nothing
     * here.
     */
    static Targets of(
        Transaction transaction,
        PendingExports pendingExports,
        SyncEngine engine,
        Collection<String> mvoIds,
        SyncPageState state) {
      Map<String, Map<String, CsoRow>> byMvo = new HashMap<>();
      List<Long> targetIds = new ArrayList<>();
      for (String mvoId : mvoIds) {
        MvoRow mvo = state.mvo(mvoId);
        List<CsoRow> connectors = state.connectors(mvoId);
        if (mvo == null || connectors.isEmpty()) {
          continue;
        }
        Map<String, CsoRow> bySystem = new HashMap<>();
        connectors.forEach(connector -> bySystem.put(connector.connectedSystem(), connector));
        byMvo.put(mvoId, bySystem);
        for (OutboundRule rule : engine.outboundRulesFor(mvo.objectType())) {
          CsoRow target = bySystem.get(rule.connectedSystem());
          if (target != null) {
            targetIds.add(target.id());
          }
        }
      }
      return new Targets(byMvo, transaction.get(c -> pendingExports.findOpenByCso(c, targetIds)));
    }

    CsoRow target(String mvoId, String system) {
      return byMvo.getOrDefault(mvoId, Map.of()).get(system);
    }

    List<PendingExportRow> outstanding(CsoRow target) {
      return target == null ? List.of() : open.getOrDefault(target.id(), List.of());
    }
  }

  /** The page's exports, and the objects to provision with their Create exports. */
  private static final class Queue {
    private final String runId;
    private final RunContext.Page page;
    private final List<NewCso> provisioned = new ArrayList<>();
    private final List<NewPendingExport> creates = new ArrayList<>();
    private final List<NewPendingExport> exports = new ArrayList<>();

    Queue(String runId, RunContext.Page page) {
      this.runId = runId;
      this.page = page;
    }

    void provision(OutboundRule rule, String mvoId, CsoRow target, OutboundDecision decision) {
      if (target == null) {
        provisioned.add(
            new NewCso(
                rule.connectedSystem(),
                rule.objectType(),
                decision.anchor(),
                "{}",
                "",
                CsoState.PendingProvisioning,
                mvoId,
                "Provisioned",
                false,
                null));
        creates.add(
            new NewPendingExport(
                rule.connectedSystem(),
                -1,
                mvoId,
                ExportChange.Create,
                decision.attributes(),
                false,
                runId));
      } else {
        // Its earlier object is being deleted: create it again once that delete is exported.
        exports.add(
            new NewPendingExport(
                rule.connectedSystem(),
                target.id(),
                mvoId,
                ExportChange.Create,
                decision.attributes(),
                false,
                runId));
        page.change(decision.anchor(), target.id(), mvoId, ChangeType.Provisioned);
        page.delta.increment(Total.PENDING_EXPORTS);
      }
    }

    void export(
        OutboundRule rule,
        CsoRow target,
        String mvoId,
        ExportChange change,
        Map<String, String> attributes) {
      exports.add(
          new NewPendingExport(
              rule.connectedSystem(), target.id(), mvoId, change, attributes, false, runId));
      page.delta.increment(Total.PENDING_EXPORTS);
    }
  }

  /**
   * Inserts the CSOs of provisioned objects and their Create exports; an anchor the target system
   * already has (or that two MVOs want) is an error for that MVO only.
   */
  private void insertProvisioned(Transaction transaction, Queue queue, RunContext.Page page) {
    List<NewCso> provisioned = queue.provisioned;
    if (provisioned.isEmpty()) {
      return;
    }
    // Anchors are unique per system and object type, so each pair is checked on its own.
    Map<String, List<Integer>> byKind = new LinkedHashMap<>();
    for (int i = 0; i < provisioned.size(); i++) {
      NewCso cso = provisioned.get(i);
      byKind
          .computeIfAbsent(
              cso.connectedSystem() + "\u0000" + cso.objectType(), k -> new ArrayList<>())
          .add(i);
    }
    for (List<Integer> indexes : byKind.values()) {
      NewCso first = provisioned.get(indexes.get(0));
      List<String> anchors = indexes.stream().map(i -> provisioned.get(i).anchor()).toList();
      Map<String, Long> taken =
          transaction.get(
              c ->
                  connectorSpace.findIdsByAnchors(
                      c, first.connectedSystem(), first.objectType(), anchors));
      List<Integer> accepted = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (int i : indexes) {
        NewCso cso = provisioned.get(i);
        if (taken.containsKey(cso.anchor()) || !seen.add(cso.anchor())) {
          page.error(
              cso.anchor(),
              null,
              "AnchorInUse",
              cso.connectedSystem() + " already has an object with anchor " + cso.anchor());
        } else {
          accepted.add(i);
        }
      }
      List<NewCso> inserted = accepted.stream().map(provisioned::get).toList();
      Map<String, Long> ids = transaction.get(c -> connectorSpace.insert(c, inserted));
      for (int i : accepted) {
        NewCso cso = provisioned.get(i);
        long id = ids.get(cso.anchor());
        NewPendingExport create = queue.creates.get(i);
        queue.exports.add(
            new NewPendingExport(
                create.connectedSystem(),
                id,
                create.mvoId(),
                create.change(),
                create.attributes(),
                false,
                create.runId()));
        page.change(cso.anchor(), id, cso.mvoId(), ChangeType.Provisioned);
        page.delta.increment(Total.PENDING_EXPORTS);
      }
    }
  }
}
