package io.jimflow.dataplane;

import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.CsoChange;
import io.jimflow.store.ChangeHistory.MvoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.CsoRow;
import io.jimflow.store.CsoState;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.Repositories;
import io.jimflow.store.Transaction;
import io.jimflow.sync.CsoFacts;
import io.jimflow.sync.InboundDecision;
import io.jimflow.sync.InboundRule;
import io.jimflow.sync.JoinPair;
import io.jimflow.sync.MultiValue;
import io.jimflow.sync.SyncEngine;
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
 * The inbound phase of a synchronisation page: what each CSO means for the metaverse (project,
 * join, flow, disconnect) as the sync engine decides, applied to the page's state and written to
 * the connector space and the metaverse, and the deletion dates of MVOs whose authoritative
 * connectors changed.
 */
final class InboundSync {

  private final ConnectorSpace connectorSpace;
  private final Metaverse metaverse;
  private final ChangeHistory history;
  private final SyncEngine engine;
  private final Map<String, Set<String>> joinAttributes;

  InboundSync(Repositories repositories, SyncEngine engine) {
    this.connectorSpace = repositories.connectorSpace();
    this.metaverse = repositories.metaverse();
    this.history = repositories.history();
    this.engine = engine;
    this.joinAttributes = engine.joinAttributes();
  }

  /** What the page's decisions change, collected to be written in few statements. */
  static final class Changes {
    private final List<CsoRow> csos;
    private final List<Long> disconnected = new ArrayList<>();
    private final Set<Long> removed = new LinkedHashSet<>();
    private final List<Long> synced = new ArrayList<>();
    private final Map<Long, String> projectedJoins = new LinkedHashMap<>();
    private final Map<Long, String> joins = new LinkedHashMap<>();
    private final List<MvoRow> newMvos = new ArrayList<>();
    private final Set<String> deletionChecks = new LinkedHashSet<>();
    private final List<MvoChange> mvoChanges = new ArrayList<>();

    private Changes(List<CsoRow> csos) {
      this.csos = csos;
    }

    /** MVOs whose deletion date may change: their authoritative connectors may have. */
    Set<String> deletionChecks() {
      return deletionChecks;
    }

    /** The MVOs the page created or whose attributes it changed: what provisioning looks at. */
    Set<String> exportCandidates(SyncPageState state) {
      Set<String> candidates = new LinkedHashSet<>(state.changed());
      newMvos.forEach(m -> candidates.add(m.id()));
      return candidates;
    }
  }

  /**
   * The state the page's decisions start from: the MVOs its CSOs are joined to, and for every
   * unjoined CSO in scope the MVOs its join pairs could match (with their connectors), in few
   * queries.
   */
  SyncPageState loadState(Transaction transaction, List<CsoRow> csos) {
    SyncPageState state = new SyncPageState(joinAttributes);
    Set<String> joinedIds = new HashSet<>();
    csos.forEach(
        c -> {
          if (c.mvoId() != null) {
            joinedIds.add(c.mvoId());
          }
        });
    state.putAll(transaction.get(c -> metaverse.findByIds(c, joinedIds)));
    Map<String, Map<String, Set<String>>> valuesByTypeAndAttribute = joinValues(csos, state);
    Set<String> candidateIds = new HashSet<>();
    for (var byType : valuesByTypeAndAttribute.entrySet()) {
      for (var byAttribute : byType.getValue().entrySet()) {
        transaction
            .get(
                c ->
                    metaverse.findByKey(
                        c, byType.getKey(), byAttribute.getKey(), byAttribute.getValue()))
            .values()
            .forEach(candidateIds::addAll);
      }
    }
    candidateIds.removeAll(state.mvoIds());
    state.putAll(transaction.get(c -> metaverse.findByIds(c, candidateIds)));
    // The only read of the page's connectors: joins, deletion dates and provisioning all answer
    // from
    // the state, which applies the page's own joins, disconnections and deletions to them.
    Set<String> all = new HashSet<>(state.mvoIds());
    transaction.get(c -> connectorSpace.findByMvoIds(c, all)).forEach(state::addConnector);
    return state;
  }

  /** The values the join pairs of unjoined CSOs in scope look for, by MVO type and attribute. */
  private Map<String, Map<String, Set<String>>> joinValues(List<CsoRow> csos, SyncPageState state) {
    Map<String, Map<String, Set<String>>> valuesByTypeAndAttribute = new HashMap<>();
    for (CsoRow cso : csos) {
      if (cso.mvoId() != null || cso.state() == CsoState.Obsolete) {
        continue;
      }
      CsoFacts facts = state.facts(cso);
      engine
          .inboundRuleInScope(facts)
          .ifPresent(
              rule -> {
                for (JoinPair pair : rule.join()) {
                  String value = facts.attributes().get(pair.csoAttribute());
                  if (value != null && !value.isEmpty()) {
                    Set<String> values =
                        valuesByTypeAndAttribute
                            .computeIfAbsent(rule.mvoType(), t -> new HashMap<>())
                            .computeIfAbsent(pair.mvoAttribute(), a -> new HashSet<>());
                    // Several values are keyed in sorted order; a key stored before in the
                    // CSO's own order is found too.
                    values.add(value);
                    values.add(MultiValue.normalised(value));
                  }
                }
              });
    }
    return valuesByTypeAndAttribute;
  }

  /**
   * Decides, CSO by CSO, what each means for the metaverse and applies it to {@code state}, so
   * later CSOs of the page see it; records run items on the page. Nothing is written yet.
   */
  Changes decide(List<CsoRow> csos, SyncPageState state, RunContext.Page page) {
    Changes changes = new Changes(csos);
    for (CsoRow cso : csos) {
      CsoFacts facts = state.facts(cso);
      MvoRow joined = cso.mvoId() == null ? null : state.mvo(cso.mvoId());
      InboundDecision decision =
          engine.decideInbound(facts, joined == null ? null : SyncPageState.toState(joined), state);
      apply(cso, facts, decision, changes, state, page);
      if (cso.state() == CsoState.Obsolete) {
        changes.removed.add(cso.id());
        state.leave(cso.id());
      } else if (cso.syncPending()) {
        changes.synced.add(cso.id());
      }
    }
    return changes;
  }

  private void apply(
      CsoRow cso,
      CsoFacts facts,
      InboundDecision decision,
      Changes changes,
      SyncPageState state,
      RunContext.Page page) {
    String mvoId = decision.mvoId();
    Map<String, String> attributeChanges = decision.mvoAttributeChanges();
    switch (decision.kind()) {
      case PROJECT -> {
        InboundRule rule = engine.inboundRuleInScope(facts).orElseThrow();
        MvoRow mvo =
            new MvoRow(UUID.randomUUID().toString(), rule.mvoType(), attributeChanges, null);
        changes.newMvos.add(mvo);
        state.add(mvo, cso);
        changes.projectedJoins.put(cso.id(), mvo.id());
        page.change(cso.anchor(), cso.id(), mvo.id(), ChangeType.Projected);
        changes.mvoChanges.add(new MvoChange(mvo.id(), ChangeType.Projected, mvo.attributes()));
      }
      case JOIN -> {
        changes.joins.put(cso.id(), mvoId);
        state.connect(mvoId, cso);
        state.changeMvo(mvoId, attributeChanges);
        changes.deletionChecks.add(mvoId);
        page.change(cso.anchor(), cso.id(), mvoId, ChangeType.Joined);
        changes.mvoChanges.add(new MvoChange(mvoId, ChangeType.Joined, attributeChanges));
      }
      case FLOW -> {
        state.changeMvo(mvoId, attributeChanges);
        changes.deletionChecks.add(mvoId);
        page.change(cso.anchor(), cso.id(), mvoId, ChangeType.AttributeFlow);
        changes.mvoChanges.add(new MvoChange(mvoId, ChangeType.AttributeFlow, attributeChanges));
      }
      case DISCONNECT, DISCONNECT_OUT_OF_SCOPE -> {
        changes.disconnected.add(cso.id());
        state.leave(cso.id());
        changes.deletionChecks.add(mvoId);
        ChangeType type =
            decision.kind() == InboundDecision.Kind.DISCONNECT
                ? ChangeType.Disconnected
                : ChangeType.DisconnectedOutOfScope;
        page.change(cso.anchor(), cso.id(), mvoId, type);
        changes.mvoChanges.add(new MvoChange(mvoId, type, null));
      }
      case ERROR ->
          page.error(cso.anchor(), cso.id(), decision.errorType(), decision.errorMessage());
      case NONE -> {
        if (mvoId != null) {
          changes.deletionChecks.add(mvoId);
        }
      }
    }
  }

  /** Writes the page's new MVOs, joins, disconnections and removed CSOs. */
  void write(Transaction transaction, Changes changes) {
    transaction.run(
        c -> {
          metaverse.insert(c, changes.newMvos);
          connectorSpace.join(c, changes.projectedJoins, "Projected");
          connectorSpace.join(c, changes.joins, "Joined");
          connectorSpace.disconnect(c, changes.disconnected);
          connectorSpace.delete(c, changes.removed);
          // Joining already cleared the flag of the CSOs it touched.
          changes.synced.removeAll(changes.projectedJoins.keySet());
          changes.synced.removeAll(changes.joins.keySet());
          connectorSpace.clearSyncPending(c, changes.synced);
        });
  }

  /**
   * Sets or clears deletion dates of MVOs whose authoritative connectors changed, from the systems
   * of the connectors each has once the page's joins, disconnections and deletions are written.
   */
  void scheduleDeletions(Set<String> mvoIds, SyncPageState state, Instant now) {
    for (String id : mvoIds) {
      MvoRow mvo = state.mvo(id);
      if (mvo == null) {
        continue;
      }
      Set<String> remaining = new HashSet<>();
      state.connectors(id).forEach(connector -> remaining.add(connector.connectedSystem()));
      Instant eligible = engine.deletionEligibleAt(SyncPageState.toState(mvo), remaining, now);
      if (!Objects.equals(eligible, mvo.deletionEligibleAt())) {
        state.scheduleDeletion(mvo, eligible);
      }
    }
  }

  /** Records the page's MVO and CSO changes in the change history. */
  void recordHistory(Transaction transaction, String runId, Changes changes) {
    List<CsoChange> csoChanges = new ArrayList<>();
    for (CsoRow cso : changes.csos) {
      if (changes.removed.contains(cso.id())) {
        csoChanges.add(
            new CsoChange(cso.id(), cso.connectedSystem(), cso.anchor(), ChangeType.Deleted, null));
      }
    }
    transaction.run(
        c -> {
          history.recordMvoChanges(c, runId, changes.mvoChanges);
          history.recordCsoChanges(c, runId, csoChanges);
        });
  }
}
