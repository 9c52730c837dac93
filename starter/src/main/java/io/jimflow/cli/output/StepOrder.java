package io.jimflow.cli.output;

import io.jimflow.schedule.StepStatus;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The order an execution's steps are shown in: group by group (ascending index), and within a group
 * failures first, as JIM lists a group's outcomes, so that in a wide group the step that failed is
 * on top. Steps of equal rank keep the order the schedule lists them in.
 */
public final class StepOrder {

  private StepOrder() {}

  /** The steps sorted for display; {@code steps} is left as it is. */
  public static <T> List<T> failuresFirst(
      List<T> steps, ToIntFunction<T> index, Function<T, StepStatus> status) {
    return steps.stream()
        .sorted(Comparator.comparingInt(index).thenComparingInt(step -> rank(status.apply(step))))
        .toList();
  }

  /** 0 for a failed step, 1 for one that completed with errors, 2 for any other. */
  public static int rank(StepStatus status) {
    if (status == null) {
      return 2;
    }
    return switch (status) {
      case FailedWithError -> 0;
      case CompleteWithError -> 1;
      default -> 2;
    };
  }
}
