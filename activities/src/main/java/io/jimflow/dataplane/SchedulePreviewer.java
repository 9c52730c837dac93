package io.jimflow.dataplane;

import io.jimflow.dataplane.ThresholdDecision.Crossing;
import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
import io.jimflow.schedule.ApprovalDecision;
import io.jimflow.schedule.ChangeSample;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.SchedulePreview.Counts;
import io.jimflow.schedule.SchedulePreview.StepPreview;
import io.jimflow.schedule.SchedulePreview.SystemPreview;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.RecordedCsoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.PendingSample;
import io.jimflow.store.PreviewStore;
import io.jimflow.store.RunType;
import io.jimflow.store.Store;
import io.jimflow.sync.ExportChange;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs a schedule's imports and synchronisations in preview mode: for real, in one transaction of
 * the store that is rolled back at the end ({@link PreviewStore}), so that nothing stays (no run
 * record, no watermark, no connector space or metaverse change, no pending export) and nothing is
 * sent to any target (exports are not run). Then reads, before rolling back, what each system's
 * imports changed and what its next export would send, and which thresholds would hold.
 */
public final class SchedulePreviewer {

  private final Store store;
  private final DataPlaneConfig config;
  private final Path baseDirectory;
  private final Clock clock;
  private final Secrets secrets;
  private final Function<String, String> environment;
  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;
  private final ChangeHistory history;

  public SchedulePreviewer(
      Store store,
      DataPlaneConfig config,
      Path baseDirectory,
      Clock clock,
      Secrets secrets,
      Function<String, String> environment) {
    this.store = store;
    this.config = config;
    this.baseDirectory = baseDirectory;
    this.clock = clock;
    this.secrets = secrets;
    this.environment = environment;
    this.connectorSpace = new ConnectorSpace(clock);
    this.pendingExports = new PendingExports(clock);
    this.history = new ChangeHistory(clock);
  }

  public SchedulePreview preview(
      ScheduleDefinition definition, Initiator initiator, StepProgress progress) {
    List<StepPreview> steps = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    Map<String, Counts> imported = new LinkedHashMap<>();
    Map<String, List<String>> holds = new LinkedHashMap<>();
    Map<String, List<ChangeSample>> importSamples = new LinkedHashMap<>();
    try (PreviewStore preview = new PreviewStore(store)) {
      Store previewStore = preview.store();
      RunProfileExecutorImpl executor =
          new RunProfileExecutorImpl(
              previewStore, config, baseDirectory, clock, secrets, environment);
      for (StepDefinition step : definition.steps()) {
        Optional<ConnectedSystemConfig> system =
            step.runProfile() == null
                ? Optional.empty()
                : config.system(step.runProfile().connectedSystem());
        Optional<RunProfileConfig> profile =
            system.flatMap(s -> s.runProfile(step.runProfile().runProfile()));
        if (profile.isEmpty() || profile.get().runType() == RunType.Export) {
          skipped.add(step.name());
          continue;
        }
        String id = system.get().id();
        long before = previewStore.inTransaction(c -> connectorSpace.count(c, id));
        RunProfileOutcome outcome =
            executor.execute(
                new RunProfileRun(
                    id,
                    profile.get().id(),
                    null,
                    definition.id(),
                    step.index(),
                    step.name(),
                    initiator,
                    1,
                    // Past every threshold, so that the preview sees all a run would do; which
                    // thresholds would hold is worked out below.
                    pastThresholds(step)),
                progress);
        steps.add(
            new StepPreview(
                step.name(), outcome.status(), withoutApproval(step, outcome.message())));
        if (profile.get().runType().isImport()) {
          sampleImport(
              previewStore,
              system.get(),
              outcome.runRecordId(),
              importSamples.computeIfAbsent(system.get().name(), k -> new ArrayList<>()));
          Map<String, Long> stats = outcome.stats();
          long deleted = stats.getOrDefault("deleted", 0L);
          imported.merge(
              system.get().name(),
              new Counts(
                  stats.getOrDefault("added", 0L), stats.getOrDefault("updated", 0L), deleted),
              Counts::plus);
          if (profile.get().runType() == RunType.FullImport) {
            ThresholdDecision.absent(deleted, before, system.get().thresholds(), List.of())
                .ifPresent(
                    c ->
                        holds
                            .computeIfAbsent(system.get().name(), k -> new ArrayList<>())
                            .add(step.name() + " " + c.describe(system.get().name())));
          }
        }
      }
      List<SystemPreview> systems = new ArrayList<>();
      for (ConnectedSystemConfig system : config.connectedSystems()) {
        systems.add(
            systemPreview(
                previewStore,
                system,
                imported,
                holds,
                importSamples.getOrDefault(system.name(), List.of())));
      }
      return new SchedulePreview(definition.id(), steps, systems, skipped);
    }
  }

  /**
   * Adds to {@code samples} up to the system's {@code samples} objects of each change an import run
   * of it made in the preview: what it added and updated, with the values the store held before the
   * preview (read outside its transaction) and after, and what it marked absent.
   */
  private void sampleImport(
      Store previewStore, ConnectedSystemConfig system, String runId, List<ChangeSample> samples) {
    if (runId == null) {
      return;
    }
    Set<String> shown = mappedAttributes(system.id());
    for (ChangeType change : List.of(ChangeType.Added, ChangeType.Updated, ChangeType.Deleted)) {
      String kind = IMPORT_CHANGES.get(change);
      int room =
          system.thresholds().samples()
              - (int) samples.stream().filter(x -> x.change().equals(kind)).count();
      if (room <= 0) {
        continue;
      }
      List<RecordedCsoChange> changes =
          previewStore.inTransaction(c -> history.lastCsoChanges(c, runId, change, room));
      Map<String, Map<String, String>> before = new HashMap<>();
      if (change == ChangeType.Updated) {
        for (RecordedCsoChange updated : changes) {
          store
              .inTransaction(
                  c ->
                      connectorSpace.findByAnchors(
                          c, system.id(), updated.objectType(), List.of(updated.anchor())))
              .values()
              .forEach(cso -> before.put(cso.anchor(), cso.attributes()));
        }
      }
      for (RecordedCsoChange recorded : changes) {
        samples.add(
            ChangeSamples.of(
                kind,
                recorded.anchor(),
                before.get(recorded.anchor()),
                recorded.attributes(),
                shown));
      }
    }
  }

  private static final Map<ChangeType, String> IMPORT_CHANGES =
      Map.of(ChangeType.Added, "Add", ChangeType.Updated, "Update", ChangeType.Deleted, "Delete");

  /** The attributes of a system its sync rules read (inbound) or write (outbound). */
  private Set<String> mappedAttributes(String system) {
    Set<String> mapped = new HashSet<>();
    config.syncRules().inbound().stream()
        .filter(r -> r.connectedSystem().equals(system))
        .forEach(r -> r.flows().forEach(f -> mapped.add(f.source())));
    config.syncRules().outbound().stream()
        .filter(r -> r.connectedSystem().equals(system))
        .forEach(r -> r.flows().forEach(f -> mapped.add(f.target())));
    return mapped;
  }

  private static ApprovalDecision pastThresholds(StepDefinition step) {
    return new ApprovalDecision(step.name(), true, "preview", "preview");
  }

  /**
   * A step's message without the approval the preview gave it: no person approved anything, and the
   * thresholds it would cross are said in the holds.
   */
  static String withoutApproval(StepDefinition step, String message) {
    String approval = pastThresholds(step).describe();
    if (message == null || !message.startsWith(approval)) {
      return message;
    }
    String rest = message.substring(approval.length()).replaceFirst("^; ", "");
    return rest.isBlank() ? null : rest;
  }

  private SystemPreview systemPreview(
      Store previewStore,
      ConnectedSystemConfig system,
      Map<String, Counts> imported,
      Map<String, List<String>> holds,
      List<ChangeSample> importSamples) {
    String id = system.id();
    Map<ExportChange, Long> pending =
        previewStore.inTransaction(c -> pendingExports.countPendingByChange(c, id, Long.MAX_VALUE));
    Counts exports =
        new Counts(
            pending.getOrDefault(ExportChange.Create, 0L),
            pending.getOrDefault(ExportChange.Update, 0L),
            pending.getOrDefault(ExportChange.Delete, 0L));
    long total = previewStore.inTransaction(c -> connectorSpace.count(c, id));
    List<String> sample = new ArrayList<>();
    List<ChangeSample> samples = new ArrayList<>();
    int limit = system.thresholds().samples();
    for (ExportChange change : ExportChange.values()) {
      for (PendingSample export :
          previewStore.inTransaction(
              c -> pendingExports.samplePending(c, id, change, Long.MAX_VALUE, limit))) {
        sample.add(change + " " + export.anchor());
        samples.add(ChangeSamples.of(export));
      }
    }
    List<String> systemHolds = new ArrayList<>(holds.getOrDefault(system.name(), List.of()));
    for (Crossing crossing :
        ThresholdDecision.export(
            exports.deletes(),
            exports.updates(),
            total,
            system.thresholds(),
            List.of(),
            List.of())) {
      systemHolds.add("its export " + crossing.describe(system.name()));
    }
    return new SystemPreview(
        system.name(),
        imported.getOrDefault(system.name(), Counts.NONE),
        exports,
        systemHolds,
        sample,
        samples,
        importSamples);
  }
}
