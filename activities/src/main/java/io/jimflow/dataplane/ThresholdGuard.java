package io.jimflow.dataplane;

import io.jimflow.dataplane.ThresholdDecision.Crossing;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.CsoRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.PendingSample;
import io.jimflow.sync.ExportChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stops a run before it sends or marks anything when it would cross one of its system's thresholds
 * ({@link ThresholdDecision}): it throws {@link RunHeld}, and the run ends with what would have
 * happened, the threshold and a sample. What was pending stays pending, so the next run holds again
 * until the cause is fixed or a person approves.
 */
final class ThresholdGuard {

  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;

  ThresholdGuard(ConnectorSpace connectorSpace, PendingExports pendingExports) {
    this.connectorSpace = connectorSpace;
    this.pendingExports = pendingExports;
  }

  /**
   * A run above a threshold: why, in one line, and a few of the objects it would change with their
   * changed attributes' values before and after, one line each.
   */
  static final class RunHeld extends RuntimeException {
    private final List<String> samples;

    RunHeld(String message, List<String> samples) {
      super(message);
      this.samples = List.copyOf(samples);
    }

    List<String> samples() {
      return samples;
    }
  }

  /** Before a full import marks the objects it did not find absent. */
  void beforeMarkingAbsent(RunContext run) {
    String system = run.system.id();
    ConnectorSpace.AbsentCount count =
        run.read(c -> connectorSpace.countNotSeen(c, system, run.runId));
    List<String> sample =
        count.absent() == 0
            ? List.of()
            : run
                .read(
                    c ->
                        connectorSpace.findNotSeen(
                            c, system, run.runId, 0, run.system.thresholds().samples()))
                .stream()
                .map(CsoRow::anchor)
                .toList();
    Optional<Crossing> crossing =
        ThresholdDecision.absent(count.absent(), count.total(), run.system.thresholds(), sample);
    if (crossing.isPresent()) {
      throw new RunHeld(
          "held: the full import "
              + crossing.get().describe(run.system.name())
              + "; nothing was marked absent",
          List.of());
    }
  }

  /** Before an export sends the pending exports with ids up to {@code upToId}. */
  void beforeExport(RunContext run, long upToId) {
    String system = run.system.id();
    Map<ExportChange, Long> pending =
        run.read(c -> pendingExports.countPendingByChange(c, system, upToId));
    long deletions = pending.getOrDefault(ExportChange.Delete, 0L);
    long updates = pending.getOrDefault(ExportChange.Update, 0L);
    long total = run.read(c -> connectorSpace.count(c, system));
    List<PendingSample> deleted =
        deletions == 0 ? List.of() : sample(run, ExportChange.Delete, upToId);
    List<PendingSample> updated =
        updates == 0 ? List.of() : sample(run, ExportChange.Update, upToId);
    List<Crossing> crossings =
        ThresholdDecision.export(
            deletions, updates, total, run.system.thresholds(), anchors(deleted), anchors(updated));
    if (!crossings.isEmpty()) {
      List<String> samples = new ArrayList<>();
      for (PendingSample sample : updated) {
        samples.add(ChangeSamples.of(sample).describe());
      }
      for (PendingSample sample : deleted) {
        samples.add(ChangeSamples.of(sample).describe());
      }
      throw new RunHeld(
          "held: the export "
              + String.join(
                  "; and ", crossings.stream().map(c -> c.describe(run.system.name())).toList())
              + "; nothing was sent and the exports stay pending",
          samples);
    }
  }

  private List<PendingSample> sample(RunContext run, ExportChange change, long upToId) {
    int limit = run.system.thresholds().samples();
    return run.read(c -> pendingExports.samplePending(c, run.system.id(), change, upToId, limit));
  }

  private static List<String> anchors(List<PendingSample> samples) {
    return samples.stream().map(PendingSample::anchor).toList();
  }
}
