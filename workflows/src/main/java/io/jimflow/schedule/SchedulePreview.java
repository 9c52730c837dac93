package io.jimflow.schedule;

import java.util.List;

/**
 * What a schedule's imports and synchronisations would change, found by running them in preview
 * mode (everything they write is rolled back), per connected system.
 *
 * @param scheduleId the schedule previewed
 * @param steps the steps run in preview (imports and synchronisations), with how each ended
 * @param systems per connected system: what its imports would change in the connector space, and
 *     what its next export would send
 * @param skipped the steps a preview does not run (exports, programs, SQL scripts)
 */
public record SchedulePreview(
    String scheduleId, List<StepPreview> steps, List<SystemPreview> systems, List<String> skipped) {

  public SchedulePreview {
    steps = List.copyOf(steps);
    systems = List.copyOf(systems);
    skipped = List.copyOf(skipped);
  }

  /** One step run in preview: its status and message as the real run would report them. */
  public record StepPreview(String name, StepStatus status, String message) {}

  /**
   * @param imported objects its imports would add, update and mark absent
   * @param exports what its next export would send: creates, updates, deletes
   * @param holds the thresholds that would hold a run of it, as the held step would say
   * @param sample a few of the objects its export would change, e.g. {@code Update E7}
   * @param samples the same objects with their changed attributes' values before and after
   * @param importSamples a few of the objects its imports would add, update and mark absent, with
   *     their changed attributes' values before and after
   */
  public record SystemPreview(
      String system,
      Counts imported,
      Counts exports,
      List<String> holds,
      List<String> sample,
      List<ChangeSample> samples,
      List<ChangeSample> importSamples) {

    public SystemPreview {
      holds = List.copyOf(holds);
      sample = List.copyOf(sample);
      // Absent from what a worker before the samples returned.
      samples = samples == null ? List.of() : List.copyOf(samples);
      importSamples = importSamples == null ? List.of() : List.copyOf(importSamples);
    }
  }

  /** Adds, updates and deletes. */
  public record Counts(long adds, long updates, long deletes) {
    public static final Counts NONE = new Counts(0, 0, 0);

    public Counts plus(Counts other) {
      return new Counts(adds + other.adds, updates + other.updates, deletes + other.deletes);
    }
  }
}
