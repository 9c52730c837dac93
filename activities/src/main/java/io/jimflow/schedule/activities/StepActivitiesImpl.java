package io.jimflow.schedule.activities;

import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.AbandonStepRequest;
import io.jimflow.schedule.PreviewRequest;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.SchedulePreview;
import io.jimflow.schedule.StepActivities;
import io.jimflow.schedule.StepAttempt;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepFailureDetails;
import io.jimflow.schedule.StepFailures;
import io.jimflow.schedule.StepOptions;
import io.jimflow.schedule.StepRunRequest;
import io.jimflow.schedule.StepRunResult;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.DeadlineStepProgress;
import io.jimflow.schedule.steps.ExecutableRunner;
import io.jimflow.schedule.steps.HeartbeatStepProgress;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.SqlScriptRunner;
import io.jimflow.schedule.steps.StepMaxima;
import io.jimflow.secrets.activities.SecretMasker;
import io.jimflow.secrets.activities.Secrets;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs schedule steps: RunProfile steps through the {@link RunProfileExecutor}, Executable steps
 * through the {@link ExecutableRunner}, SqlScript steps through the {@link SqlScriptRunner}. Every
 * failure it raises carries the attempt in a {@link StepFailureDetails}, so that the execution
 * reports attempts honestly.
 */
public class StepActivitiesImpl implements StepActivities {

  private static final Logger log = LoggerFactory.getLogger(StepActivitiesImpl.class);

  /** Longer than any step's timeout may be: a step waits for its resources within its execution. */
  static final Duration LONGEST_LOCK_WAIT = Duration.ofDays(31);

  private final RunProfileExecutor runProfiles;
  private final ExecutableRunner executables;
  private final SqlScriptRunner sqlScripts;
  private final Secrets secrets;
  private final JimflowMetrics metrics;
  private final StepMaxima maxima;

  public StepActivitiesImpl(RunProfileExecutor runProfiles, ExecutableRunner executables) {
    this(runProfiles, executables, Secrets.none());
  }

  /**
   * @param secrets the worker's secrets: every message a step sends back has their values masked
   */
  public StepActivitiesImpl(
      RunProfileExecutor runProfiles, ExecutableRunner executables, Secrets secrets) {
    this(
        runProfiles,
        executables,
        SqlScriptRunner.unconfigured("this worker has no SQL connections"),
        secrets);
  }

  /**
   * @param sqlScripts runs SqlScript steps
   * @param secrets the worker's secrets: every message a step sends back has their values masked
   */
  public StepActivitiesImpl(
      RunProfileExecutor runProfiles,
      ExecutableRunner executables,
      SqlScriptRunner sqlScripts,
      Secrets secrets) {
    this(runProfiles, executables, sqlScripts, secrets, JimflowMetrics.none());
  }

  /**
   * @param metrics records how long a RunProfile step waited for its resources
   */
  public StepActivitiesImpl(
      RunProfileExecutor runProfiles,
      ExecutableRunner executables,
      SqlScriptRunner sqlScripts,
      Secrets secrets,
      JimflowMetrics metrics) {
    this(runProfiles, executables, sqlScripts, secrets, metrics, StepMaxima.DEFAULT);
  }

  /**
   * @param maxima the most a step may ask of this worker: longer timeouts, more attempts and higher
   *     limits are clamped to these, and the step's message says so
   */
  public StepActivitiesImpl(
      RunProfileExecutor runProfiles,
      ExecutableRunner executables,
      SqlScriptRunner sqlScripts,
      Secrets secrets,
      JimflowMetrics metrics,
      StepMaxima maxima) {
    this.maxima = maxima;
    this.metrics = metrics;
    this.runProfiles = runProfiles;
    this.executables = executables;
    this.sqlScripts = sqlScripts;
    this.secrets = secrets;
  }

  @Override
  public StepRunResult runStep(StepRunRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    // Attempts count from 1; the test environment reports 0. A run resuming an attempt that its
    // worker's stop interrupted continues that attempt.
    int attempt =
        Math.max(1, context.getInfo().getAttempt())
            + (request.resumeFrom() == null ? 0 : Math.max(0, request.resumeFrom().attempt() - 1));
    if (attempt > 1) {
      reportAttempt(context.getInfo(), context, request, attempt);
    } else if (request.resumeFrom() == null) {
      recordLockWait(request);
    }
    HeartbeatStepProgress progress =
        new HeartbeatStepProgress(context, attempt, request.resumeFrom());
    StepMaxima.Bounds bounds = bounds(request.step(), context.getInfo(), attempt);
    try {
      StepRunResult result = run(request, progress, attempt, bounds);
      return new StepRunResult(
          result.status(),
          result.attempt(),
          secrets.masker().mask(bounds.annotate(result.message())),
          result.stats(),
          result.runRecordId());
    } catch (ActivityWorkerShutdownException e) {
      // The worker is being stopped: the work done so far is checkpointed; the execution resumes
      // the step on another worker, and this interrupted attempt does not count.
      throw ApplicationFailure.newBuilder()
          .setMessage("Step '" + request.step().name() + "' was interrupted: its worker stopped")
          .setType(StepFailures.WORKER_STOPPED)
          .setNonRetryable(true)
          .setDetails(progress.snapshot())
          .build();
    } catch (ActivityCompletionException e) {
      throw e;
    } catch (ApplicationFailure e) {
      SecretMasker masker = secrets.masker();
      throw ApplicationFailure.newBuilder()
          .setMessage(masker.mask(bounds.annotate(e.getOriginalMessage())))
          .setType(e.getType())
          .setNonRetryable(e.isNonRetryable())
          .setCause(masked(e.getCause(), masker))
          .setDetails(new StepFailureDetails(attempt))
          .build();
    } catch (RuntimeException e) {
      SecretMasker masker = secrets.masker();
      throw ApplicationFailure.newFailureWithCause(
          masker.mask("Step '" + request.step().name() + "' failed: " + e),
          StepFailures.STEP_FAILED,
          masked(e, masker),
          new StepFailureDetails(attempt));
    }
  }

  /**
   * The cause as it may leave the worker: unchanged when no secret shows in its messages, otherwise
   * replaced by a masked copy without its own causes, since messages deeper down may hold the value
   * too.
   */
  private static Throwable masked(Throwable cause, SecretMasker masker) {
    if (cause == null) {
      return null;
    }
    boolean clean = true;
    int depth = 0;
    for (Throwable t = cause; t != null && depth < 32; t = t.getCause(), depth++) {
      String message = t.getMessage();
      clean &= message == null || message.equals(masker.mask(message));
    }
    if (clean) {
      return cause;
    }
    RuntimeException copy =
        new RuntimeException(masker.mask(cause.getClass().getName() + ": " + cause.getMessage()));
    copy.setStackTrace(cause.getStackTrace());
    return copy;
  }

  @Override
  public SchedulePreview previewSchedule(PreviewRequest request) {
    ActivityExecutionContext context = Activity.getExecutionContext();
    return runProfiles.preview(request, new HeartbeatStepProgress(context, 1, null));
  }

  @Override
  public String abandonStep(AbandonStepRequest request) {
    StepDefinition step = request.run().step();
    if (step.runProfile() == null) {
      return null;
    }
    return runProfiles
        .abandon(
            new AbandonedRun(
                runProfileRun(request.run(), request.attempts()),
                request.status(),
                request.reason()))
        .orElse(null);
  }

  /** What this attempt may do on this worker (see {@link StepMaxima}). */
  private StepMaxima.Bounds bounds(StepDefinition step, ActivityInfo info, int attempt) {
    Duration timeout =
        info.getStartToCloseTimeout() == null || info.getStartToCloseTimeout().isZero()
            ? StepOptions.timeout(step)
            : info.getStartToCloseTimeout();
    return maxima.bound(step, timeout, attempt);
  }

  private StepRunResult run(
      StepRunRequest request,
      HeartbeatStepProgress progress,
      int attempt,
      StepMaxima.Bounds bounds) {
    StepDefinition step = request.step();
    if (bounds.refusal() != null) {
      throw ApplicationFailure.newNonRetryableFailure(
          bounds.refusal(), StepFailures.CONFIGURATION_ERROR);
    }
    int types =
        (step.runProfile() == null ? 0 : 1)
            + (step.executable() == null ? 0 : 1)
            + (step.sqlScript() == null ? 0 : 1);
    if (types != 1) {
      throw ApplicationFailure.newNonRetryableFailure(
          "Step '"
              + step.name()
              + "' must have exactly one step type (runProfile, executable or sqlScript)",
          StepFailures.CONFIGURATION_ERROR);
    }
    if (step.runProfile() != null) {
      RunProfileOutcome outcome =
          runProfiles.execute(
              runProfileRun(request, attempt),
              new DeadlineStepProgress(progress, step.name(), bounds.timeout()));
      return new StepRunResult(
          outcome.status(), attempt, outcome.message(), outcome.stats(), outcome.runRecordId());
    }
    return step.sqlScript() != null
        ? runSqlScript(step, progress, attempt, bounds.timeout())
        : runExecutable(request, bounds.executable(), progress, attempt, bounds.timeout());
  }

  private StepRunResult runSqlScript(
      StepDefinition step, HeartbeatStepProgress progress, int attempt, Duration timeout) {
    SqlScriptRunner.Finished finished = sqlScripts.run(step.sqlScript(), progress, timeout);
    Map<String, Long> stats = new LinkedHashMap<>();
    stats.put("statements", (long) finished.statements());
    stats.put("updatedRows", finished.updatedRows());
    String message =
        finished.statements()
            + " statements, "
            + finished.updatedRows()
            + " rows updated, committed on '"
            + step.sqlScript().connection()
            + "'";
    return new StepRunResult(StepStatus.Complete, attempt, message, stats, null);
  }

  private StepRunResult runExecutable(
      StepRunRequest request,
      ExecutableStep executable,
      HeartbeatStepProgress progress,
      int attempt,
      Duration timeout) {
    StepDefinition step = request.step();
    ExecutableRunner.Finished finished =
        executables.run(executable, jimflowEnvironment(request, attempt), progress, timeout);
    if (finished.exitCode() != 0) {
      // The first line names the code and the program's last words; the execution's message
      // quotes only first lines.
      String lastLine =
          finished.output().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
      throw ApplicationFailure.newFailure(
          "'"
              + step.executable().path()
              + "' exited with code "
              + finished.exitCode()
              + (lastLine.isEmpty() ? "" : ": " + lastLine + "\noutput:\n" + finished.output()),
          StepFailures.EXECUTABLE_FAILED);
    }
    Map<String, Long> stats = new LinkedHashMap<>();
    if (finished.processed() > 0 || finished.total() >= 0) {
      stats.put("processed", finished.processed());
    }
    if (finished.total() >= 0) {
      stats.put("total", finished.total());
    }
    String message = finished.output().isBlank() ? "exited with code 0" : finished.output();
    return new StepRunResult(StepStatus.Complete, attempt, message, stats, null);
  }

  private static RunProfileRun runProfileRun(StepRunRequest request, int attempt) {
    StepDefinition step = request.step();
    return new RunProfileRun(
        step.runProfile().connectedSystem(),
        step.runProfile().runProfile(),
        request.executionId(),
        request.scheduleId(),
        step.index(),
        step.name(),
        request.initiator(),
        attempt,
        request.approval());
  }

  private static Map<String, String> jimflowEnvironment(StepRunRequest request, int attempt) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("JIMFLOW_EXECUTION_ID", String.valueOf(request.executionId()));
    env.put("JIMFLOW_SCHEDULE_ID", String.valueOf(request.scheduleId()));
    env.put("JIMFLOW_STEP_NAME", request.step().name());
    env.put("JIMFLOW_ATTEMPT", Integer.toString(attempt));
    return env;
  }

  /**
   * Records the wait the first attempt of a RunProfile step reports; a wait beyond {@link
   * #LONGEST_LOCK_WAIT} or below zero is no wait a real step had, and is left out.
   */
  private void recordLockWait(StepRunRequest request) {
    Duration waited = request.lockWait();
    if (waited == null
        || request.step().runProfile() == null
        || waited.isNegative()
        || waited.compareTo(LONGEST_LOCK_WAIT) > 0) {
      return;
    }
    // The system as the data plane names it, whether the step names it by id or by name.
    String system =
        runProfiles
            .resources(
                request.step().runProfile().connectedSystem(),
                request.step().runProfile().runProfile())
            .get(0);
    metrics.lockWaited(request.scheduleId(), system, waited);
  }

  /** Tells the execution which attempt runs, for its progress; a lost report only costs display. */
  private static void reportAttempt(
      ActivityInfo info, ActivityExecutionContext context, StepRunRequest request, int attempt) {
    try {
      context
          .getWorkflowClient()
          .newUntypedWorkflowStub(
              info.getWorkflowId(), Optional.of(info.getRunId()), Optional.empty())
          .signal(
              ScheduleExecutionWorkflow.STEP_ATTEMPT_STARTED,
              new StepAttempt(request.position(), attempt));
    } catch (RuntimeException e) {
      log.debug("Could not report attempt {} of step '{}'", attempt, request.step().name(), e);
    }
  }
}
