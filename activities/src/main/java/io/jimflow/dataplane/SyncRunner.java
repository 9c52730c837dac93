package io.jimflow.dataplane;

import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.CsoChange;
import io.jimflow.store.ChangeHistory.MvoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.CsoRow;
import io.jimflow.store.CsoState;
import io.jimflow.store.Deprovisioning;
import io.jimflow.store.ExportStatus;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.store.RunType;
import io.jimflow.store.Total;
import io.jimflow.sync.CsoFacts;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.InboundDecision;
import io.jimflow.sync.InboundRule;
import io.jimflow.sync.JoinCandidates;
import io.jimflow.sync.JoinPair;
import io.jimflow.sync.MvoState;
import io.jimflow.sync.OutboundDecision;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Full and Delta Synchronisation of one connected system: each CSO (all, or those changed since the
 * last synchronisation) is projected, joined, flowed or disconnected as the sync engine decides;
 * MVOs it changed are provisioned to, updated in or deprovisioned from target systems as pending
 * exports; MVOs whose deletion grace period has passed are deleted.
 */
final class SyncRunner {

  private final ConnectorSpace connectorSpace;
  private final Metaverse metaverse;
  private final PendingExports pendingExports;
  private final ChangeHistory history;
  private final SyncEngine engine;
  private final Clock clock;
  private final Deprovisioning deprovisioning;

  SyncRunner(
      ConnectorSpace connectorSpace,
      Metaverse metaverse,
      PendingExports pendingExports,
      ChangeHistory history,
      SyncEngine engine,
      Clock clock) {
    this.connectorSpace = connectorSpace;
    this.metaverse = metaverse;
    this.pendingExports = pendingExports;
    this.history = history;
    this.engine = engine;
    this.clock = clock;
    this.deprovisioning = new Deprovisioning(engine, metaverse, connectorSpace, pendingExports);
  }

  void run(RunContext run) {
    while (run.checkpoint.phase().equals(Checkpoint.SYNC)) {
      run.commitPage((connection, page) -> syncPage(connection, run, page));
    }
    while (run.checkpoint.phase().equals(Checkpoint.DELETIONS)) {
      run.commitPage((connection, page) -> deleteDueMvos(connection, run, page));
    }
  }

  private Checkpoint syncPage(Connection connection, RunContext run, RunContext.Page page)
      throws SQLException {
    boolean pendingOnly = run.profile.runType() == RunType.DeltaSynchronisation;
    List<CsoRow> csos =
        connectorSpace.pageForSync(
            connection,
            run.system.id(),
            run.checkpoint.position(),
            run.profile.pageSize(),
            pendingOnly);
    if (csos.isEmpty()) {
      return new Checkpoint(Checkpoint.DELETIONS, 0);
    }
    page.processed = csos.size();
    Instant now = clock.instant();
    PageState state = new PageState();
    Set<String> joinedIds = new HashSet<>();
    csos.forEach(
        c -> {
          if (c.mvoId() != null) {
            joinedIds.add(c.mvoId());
          }
        });
    state.putAll(metaverse.findByIds(connection, joinedIds));
    lookUpJoinCandidates(connection, run, csos, state);

    List<Long> disconnected = new ArrayList<>();
    Set<Long> removed = new LinkedHashSet<>();
    List<Long> synced = new ArrayList<>();
    Map<Long, String> projectedJoins = new LinkedHashMap<>();
    Map<Long, String> joins = new LinkedHashMap<>();
    List<MvoRow> newMvos = new ArrayList<>();
    Set<String> deletionChecks = new LinkedHashSet<>();
    List<MvoChange> mvoChanges = new ArrayList<>();

    for (CsoRow cso : csos) {
      Map<String, String> attributes = cso.attributes();
      CsoFacts facts =
          new CsoFacts(
              cso.connectedSystem(),
              cso.objectType(),
              attributes,
              cso.state() == CsoState.Obsolete);
      MvoRow joined = cso.mvoId() == null ? null : state.mvos.get(cso.mvoId());
      InboundDecision decision =
          engine.decideInbound(facts, joined == null ? null : toState(joined), state);
      switch (decision.kind()) {
        case PROJECT -> {
          InboundRule rule = engine.inboundRuleInScope(facts).orElseThrow();
          MvoRow mvo =
              new MvoRow(
                  UUID.randomUUID().toString(),
                  rule.mvoType(),
                  decision.mvoAttributeChanges(),
                  null);
          newMvos.add(mvo);
          state.add(mvo, cso.connectedSystem());
          projectedJoins.put(cso.id(), mvo.id());
          page.change(cso.anchor(), cso.id(), mvo.id(), ChangeType.Projected);
          mvoChanges.add(new MvoChange(mvo.id(), ChangeType.Projected, mvo.attributes()));
        }
        case JOIN -> {
          joins.put(cso.id(), decision.mvoId());
          state.connect(decision.mvoId(), cso.connectedSystem());
          state.changeMvo(decision.mvoId(), decision.mvoAttributeChanges());
          deletionChecks.add(decision.mvoId());
          page.change(cso.anchor(), cso.id(), decision.mvoId(), ChangeType.Joined);
          mvoChanges.add(
              new MvoChange(decision.mvoId(), ChangeType.Joined, decision.mvoAttributeChanges()));
        }
        case FLOW -> {
          state.changeMvo(decision.mvoId(), decision.mvoAttributeChanges());
          deletionChecks.add(decision.mvoId());
          page.change(cso.anchor(), cso.id(), decision.mvoId(), ChangeType.AttributeFlow);
          mvoChanges.add(
              new MvoChange(
                  decision.mvoId(), ChangeType.AttributeFlow, decision.mvoAttributeChanges()));
        }
        case DISCONNECT, DISCONNECT_OUT_OF_SCOPE -> {
          disconnected.add(cso.id());
          deletionChecks.add(decision.mvoId());
          ChangeType type =
              decision.kind() == InboundDecision.Kind.DISCONNECT
                  ? ChangeType.Disconnected
                  : ChangeType.DisconnectedOutOfScope;
          page.change(cso.anchor(), cso.id(), decision.mvoId(), type);
          mvoChanges.add(new MvoChange(decision.mvoId(), type, null));
        }
        case ERROR ->
            page.error(cso.anchor(), cso.id(), decision.errorType(), decision.errorMessage());
        case NONE -> {
          if (decision.mvoId() != null) {
            deletionChecks.add(decision.mvoId());
          }
        }
      }
      if (cso.state() == CsoState.Obsolete) {
        removed.add(cso.id());
      } else if (cso.syncPending()) {
        synced.add(cso.id());
      }
    }

    metaverse.insert(connection, newMvos);
    connectorSpace.join(connection, projectedJoins, "Projected");
    connectorSpace.join(connection, joins, "Joined");
    connectorSpace.disconnect(connection, disconnected);
    List<CsoChange> csoChanges = new ArrayList<>();
    for (CsoRow cso : csos) {
      if (removed.contains(cso.id())) {
        csoChanges.add(
            new CsoChange(cso.id(), cso.connectedSystem(), cso.anchor(), ChangeType.Deleted, null));
      }
    }
    connectorSpace.delete(connection, removed);
    // Joining already cleared the flag of the CSOs it touched.
    synced.removeAll(projectedJoins.keySet());
    synced.removeAll(joins.keySet());
    connectorSpace.clearSyncPending(connection, synced);

    Set<String> exportCandidates = new LinkedHashSet<>(state.changed);
    newMvos.forEach(m -> exportCandidates.add(m.id()));
    scheduleDeletions(connection, deletionChecks, state, now);
    metaverse.update(connection, state.changed.stream().map(state.mvos::get).toList());
    provision(connection, run, exportCandidates, state, page);
    history.recordMvoChanges(connection, run.runId, mvoChanges);
    history.recordCsoChanges(connection, run.runId, csoChanges);
    return new Checkpoint(Checkpoint.SYNC, csos.get(csos.size() - 1).id());
  }

  /**
   * Finds, for every unjoined CSO in scope, the MVOs its join pairs could match, in few queries.
   */
  private void lookUpJoinCandidates(
      Connection connection, RunContext run, List<CsoRow> csos, PageState state)
      throws SQLException {
    Map<String, Map<String, Set<String>>> valuesByTypeAndAttribute = new HashMap<>();
    for (CsoRow cso : csos) {
      if (cso.mvoId() != null || cso.state() == CsoState.Obsolete) {
        continue;
      }
      CsoFacts facts =
          new CsoFacts(cso.connectedSystem(), cso.objectType(), cso.attributes(), false);
      engine
          .inboundRuleInScope(facts)
          .ifPresent(
              rule -> {
                for (JoinPair pair : rule.join()) {
                  String value = facts.attributes().get(pair.csoAttribute());
                  if (value != null && !value.isEmpty()) {
                    valuesByTypeAndAttribute
                        .computeIfAbsent(rule.mvoType(), t -> new HashMap<>())
                        .computeIfAbsent(pair.mvoAttribute(), a -> new HashSet<>())
                        .add(value);
                  }
                }
              });
    }
    Set<String> candidateIds = new HashSet<>();
    for (var byType : valuesByTypeAndAttribute.entrySet()) {
      for (var byAttribute : byType.getValue().entrySet()) {
        metaverse
            .findByKey(connection, byType.getKey(), byAttribute.getKey(), byAttribute.getValue())
            .values()
            .forEach(candidateIds::addAll);
      }
    }
    candidateIds.removeAll(state.mvos.keySet());
    state.putAll(metaverse.findByIds(connection, candidateIds));
    Set<String> all = new HashSet<>(state.mvos.keySet());
    for (CsoRow connector : connectorSpace.findByMvoIds(connection, all)) {
      state
          .connectors
          .computeIfAbsent(connector.mvoId(), k -> new HashMap<>())
          .put(connector.connectedSystem(), connector);
    }
  }

  /** Sets or clears deletion dates of MVOs whose authoritative connectors changed. */
  private void scheduleDeletions(
      Connection connection, Set<String> mvoIds, PageState state, Instant now) throws SQLException {
    Map<String, Set<String>> remaining = new HashMap<>();
    for (CsoRow connector : connectorSpace.findByMvoIds(connection, mvoIds)) {
      remaining
          .computeIfAbsent(connector.mvoId(), k -> new HashSet<>())
          .add(connector.connectedSystem());
    }
    for (String id : mvoIds) {
      MvoRow mvo = state.mvos.get(id);
      if (mvo == null) {
        continue;
      }
      Instant eligible =
          engine.deletionEligibleAt(toState(mvo), remaining.getOrDefault(id, Set.of()), now);
      if (!Objects.equals(eligible, mvo.deletionEligibleAt())) {
        state.put(new MvoRow(id, mvo.objectType(), mvo.attributes(), eligible));
        state.changed.add(id);
      }
    }
  }

  /** Decides and queues what target systems need for the MVOs this page created or changed. */
  private void provision(
      Connection connection,
      RunContext run,
      Set<String> mvoIds,
      PageState state,
      RunContext.Page page)
      throws SQLException {
    if (mvoIds.isEmpty() || engine.rules().outbound().isEmpty()) {
      return;
    }
    Map<String, Map<String, CsoRow>> targets = new HashMap<>();
    for (CsoRow connector : connectorSpace.findByMvoIds(connection, mvoIds)) {
      targets
          .computeIfAbsent(connector.mvoId(), k -> new HashMap<>())
          .put(connector.connectedSystem(), connector);
    }
    List<Long> targetIds = new ArrayList<>();
    targets.values().forEach(m -> m.values().forEach(c -> targetIds.add(c.id())));
    Map<Long, List<PendingExportRow>> open = pendingExports.findOpenByCso(connection, targetIds);

    List<NewCso> provisioned = new ArrayList<>();
    List<NewPendingExport> creates = new ArrayList<>();
    List<NewPendingExport> exports = new ArrayList<>();
    for (String mvoId : mvoIds) {
      MvoRow mvo = state.mvos.get(mvoId);
      if (mvo == null) {
        continue;
      }
      for (OutboundRule rule : engine.outboundRulesFor(mvo.objectType())) {
        CsoRow target = targets.getOrDefault(mvoId, Map.of()).get(rule.connectedSystem());
        List<PendingExportRow> outstanding =
            target == null ? List.of() : open.getOrDefault(target.id(), List.of());
        OutboundDecision decision =
            SyncEngine.decideOutbound(
                rule,
                toState(mvo),
                target == null ? null : PendingExports.targetFacts(target, outstanding));
        switch (decision.kind()) {
          case PROVISION -> {
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
                      run.runId));
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
                      run.runId));
              page.change(decision.anchor(), target.id(), mvoId, ChangeType.Provisioned);
              page.delta.increment(Total.PENDING_EXPORTS);
            }
          }
          case UPDATE -> {
            PendingExportRow waiting =
                outstanding.stream()
                    .filter(
                        e ->
                            e.status() == ExportStatus.Pending && e.change() != ExportChange.Delete)
                    .reduce((a, b) -> b)
                    .orElse(null);
            if (waiting != null) {
              Map<String, String> merged = new LinkedHashMap<>(waiting.attributes());
              merged.putAll(decision.attributes());
              pendingExports.replace(connection, waiting.id(), waiting.change(), merged);
            } else {
              exports.add(
                  new NewPendingExport(
                      rule.connectedSystem(),
                      target.id(),
                      mvoId,
                      ExportChange.Update,
                      decision.attributes(),
                      false,
                      run.runId));
              page.delta.increment(Total.PENDING_EXPORTS);
            }
          }
          case DEPROVISION -> {
            exports.add(
                new NewPendingExport(
                    rule.connectedSystem(),
                    target.id(),
                    mvoId,
                    ExportChange.Delete,
                    Map.of(),
                    false,
                    run.runId));
            page.change(target.anchor(), target.id(), mvoId, ChangeType.Deprovisioned);
            page.delta.increment(Total.PENDING_EXPORTS);
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
    insertProvisioned(connection, provisioned, creates, exports, page);
    pendingExports.insert(connection, exports);
  }

  /**
   * Inserts the CSOs of provisioned objects and their Create exports; an anchor the target system
   * already has (or that two MVOs want) is an error for that MVO only.
   */
  private void insertProvisioned(
      Connection connection,
      List<NewCso> provisioned,
      List<NewPendingExport> creates,
      List<NewPendingExport> exports,
      RunContext.Page page)
      throws SQLException {
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
          connectorSpace.findIdsByAnchors(
              connection, first.connectedSystem(), first.objectType(), anchors);
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
      Map<String, Long> ids =
          connectorSpace.insert(connection, accepted.stream().map(provisioned::get).toList());
      for (int i : accepted) {
        NewCso cso = provisioned.get(i);
        long id = ids.get(cso.anchor());
        NewPendingExport create = creates.get(i);
        exports.add(
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

  /** Deletes MVOs whose grace period has passed, deprovisioning them where rules say so. */
  private Checkpoint deleteDueMvos(Connection connection, RunContext run, RunContext.Page page)
      throws SQLException {
    List<MvoRow> due =
        metaverse.findDueForDeletion(connection, clock.instant(), run.profile.pageSize());
    if (due.isEmpty()) {
      return new Checkpoint("done", 0);
    }
    List<MvoChange> changes = new ArrayList<>();
    for (Deprovisioning.MvoDeletion deletion : deprovisioning.delete(connection, due, run.runId)) {
      MvoRow mvo = deletion.mvo();
      for (CsoRow target : deletion.deprovisioned()) {
        page.change(target.anchor(), target.id(), mvo.id(), ChangeType.Deprovisioned);
        page.delta.increment(Total.PENDING_EXPORTS);
      }
      page.change(
          mvo.attributes().getOrDefault("displayName", mvo.id()),
          null,
          mvo.id(),
          ChangeType.Deleted);
      changes.add(new MvoChange(mvo.id(), ChangeType.Deleted, null));
    }
    history.recordMvoChanges(connection, run.runId, changes);
    return new Checkpoint(Checkpoint.DELETIONS, 0);
  }

  private static MvoState toState(MvoRow mvo) {
    return new MvoState(mvo.id(), mvo.objectType(), mvo.attributes(), mvo.deletionEligibleAt());
  }

  /** The MVOs and joins one page knows about, including what it changed so far. */
  private static final class PageState implements JoinCandidates {
    final Map<String, MvoRow> mvos = new HashMap<>();
    final Map<String, Map<String, CsoRow>> connectors = new HashMap<>();
    final Map<String, Set<String>> addedConnectors = new HashMap<>();
    final Set<String> changed = new LinkedHashSet<>();
    private final Map<String, Set<String>> byValue = new HashMap<>();

    void add(MvoRow mvo, String system) {
      put(mvo);
      connect(mvo.id(), system);
    }

    void putAll(Map<String, MvoRow> loaded) {
      loaded.values().forEach(this::put);
    }

    /**
     * Keeps the value index in step with the page's MVOs, so joins find what this page projected.
     */
    void put(MvoRow mvo) {
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
                      .computeIfAbsent(
                          key(mvo.objectType(), name, value), k -> new LinkedHashSet<>())
                      .add(mvo.id()));
    }

    private static String key(String type, String attribute, String value) {
      return type + "\u0000" + attribute + "\u0000" + value;
    }

    void connect(String mvoId, String system) {
      addedConnectors.computeIfAbsent(mvoId, k -> new HashSet<>()).add(system);
    }

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
}
