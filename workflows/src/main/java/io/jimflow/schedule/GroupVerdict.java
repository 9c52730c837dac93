package io.jimflow.schedule;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What the failure policy decided once a group had ended.
 *
 * @param stop true when a failed step does not continue on failure: the execution ends Failed
 * @param stopping the failed steps whose policy is stop
 * @param tolerated the failed steps whose policy is continue
 */
public record GroupVerdict(boolean stop, List<StepOutcome> stopping, List<StepOutcome> tolerated) {

  public GroupVerdict {
    stopping = List.copyOf(stopping);
    tolerated = List.copyOf(tolerated);
  }

  /**
   * Names each stopping step with its status and reason, e.g. {@code 'Export' FailedWithError (exit
   * code 3)}.
   */
  public String describeStopping() {
    return describe(stopping);
  }

  /** Names each tolerated failed step with its status and reason. */
  public String describeTolerated() {
    return describe(tolerated);
  }

  static String describe(List<StepOutcome> outcomes) {
    return outcomes.stream()
        .map(
            o ->
                "'"
                    + o.name()
                    + "' "
                    + o.status()
                    + (o.message() == null || o.message().isBlank()
                        ? ""
                        : " (" + firstLine(o.message()) + ")"))
        .collect(Collectors.joining(", "));
  }

  private static String firstLine(String message) {
    String line = message.strip().lines().findFirst().orElse("");
    return line.length() > 200 ? line.substring(0, 200) + "…" : line;
  }
}
