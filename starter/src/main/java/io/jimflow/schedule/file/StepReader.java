package io.jimflow.schedule.file;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Conversion;
import io.jimflow.config.tree.Conversions;
import io.jimflow.config.tree.Fields;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.Suggestions;
import io.jimflow.schedule.ExecutablePaths;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.secrets.SecretReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one step of a schedule: its type (RunProfile, Executable, SqlScript), timeouts and retry,
 * checking references against the files beside the schedules file when there are any.
 */
final class StepReader {

  static final List<String> TRIGGER_KEYS = List.of("cron", "at", "every", "timezone");
  static final List<String> AT_KEYS = List.of("days", "times");
  static final List<String> EVERY_KEYS = List.of("minutes", "hours", "from", "to", "days");
  static final List<String> SUPPORTED_STEP_TYPES = List.of("runProfile", "executable", "sqlScript");
  static final List<String> UNSUPPORTED_STEP_TYPES = List.of("powerShell");
  static final List<String> STEP_TYPES =
      List.of("runProfile", "executable", "powerShell", "sqlScript");
  static final List<String> STEP_KEYS =
      List.of(
          "index",
          "name",
          "runProfile",
          "executable",
          "powerShell",
          "sqlScript",
          "continueOnFailure",
          "timeout",
          "retry",
          "heartbeatTimeout",
          "attemptTimeout");
  static final List<String> RUN_PROFILE_KEYS = List.of("connectedSystem", "runProfile");
  static final List<String> EXECUTABLE_KEYS =
      List.of("path", "args", "workingDirectory", "env", "limits");
  static final List<String> SQL_SCRIPT_KEYS = List.of("connection", "path");
  static final List<String> LIMIT_KEYS = List.of("cpuSeconds", "memoryMegabytes", "openFiles");
  static final List<String> RETRY_KEYS =
      List.of("maximumAttempts", "initialInterval", "backoffCoefficient");

  static final int MAX_ATTEMPTS = 100;
  static final double MAX_BACKOFF = 10.0;

  private final Problems problems;

  /** Run profile references are checked against it when the schedules file has one beside it. */
  private final Optional<ConnectedSystemsIndex> systems;

  /** SqlScript steps are checked against it when the schedules file has one beside it. */
  private final Optional<SqlScriptsIndex> sqlScripts;

  StepReader(
      Problems problems,
      Optional<ConnectedSystemsIndex> systems,
      Optional<SqlScriptsIndex> sqlScripts) {
    this.problems = problems;
    this.systems = systems;
    this.sqlScripts = sqlScripts;
  }

  /** One step; {@code nameLines} holds the lines of the names its schedule used so far. */
  Optional<StepDefinition> read(Fields step, Map<String, Integer> nameLines) {
    List<String> known = new ArrayList<>(STEP_KEYS);
    for (ConfigNode.Entry entry : step.node().entries()) {
      if (!STEP_KEYS.contains(entry.key()) && entry.value() instanceof ConfigNode.MapNode) {
        // A mapping under an unknown key reads as an attempt at a step type; say so, once.
        known.add(entry.key());
        problems.at(
            entry.keyLine(),
            entry.value().path(),
            "unknown step type '"
                + entry.key()
                + "'"
                + Suggestions.closest(entry.key(), SUPPORTED_STEP_TYPES)
                    .map(k -> "; did you mean '" + k + "'?")
                    .orElse("")
                + " (step types: "
                + String.join(", ", SUPPORTED_STEP_TYPES)
                + ")");
      }
    }
    boolean unknownType = known.size() > STEP_KEYS.size();
    step.allowOnly(known);

    Optional<Integer> index =
        step.required(
            "index",
            Conversions.integer()
                .check(i -> i < 0 ? "must not be negative (got " + i + ")" : null));
    Optional<String> name = step.required("name", Conversions.nonBlankText());
    name.ifPresent(
        value -> {
          Integer first = nameLines.putIfAbsent(value, step.lineOf("name"));
          if (first != null) {
            problems.at(
                step.lineOf("name"),
                step.pathOf("name"),
                "duplicate step name '"
                    + value
                    + "' in this schedule (first used on line "
                    + first
                    + ")");
          }
        });

    List<String> types = new ArrayList<>();
    for (String type : STEP_TYPES) {
      if (step.has(type)) {
        types.add(type);
      }
    }
    for (String type : types) {
      if (UNSUPPORTED_STEP_TYPES.contains(type)) {
        problems.at(
            step.lineOf(type),
            step.pathOf(type),
            type
                + " steps are not supported yet; use "
                + String.join(" or ", SUPPORTED_STEP_TYPES)
                + " (JIM would skip this step silently)");
      }
    }
    if (types.size() > 1) {
      problems.at(
          step.node().line(),
          step.node().path(),
          "a step has exactly one type but this one has " + String.join(" and ", types));
    } else if (types.isEmpty() && !unknownType) {
      problems.at(
          step.node().line(),
          step.node().path(),
          "a step needs a type: " + String.join(" or ", SUPPORTED_STEP_TYPES));
    }

    RunProfileStep runProfile =
        step.fields("runProfile").flatMap(this::readRunProfile).orElse(null);
    ExecutableStep executable =
        step.fields("executable").flatMap(this::readExecutable).orElse(null);
    SqlScriptStep sqlScript = step.fields("sqlScript").flatMap(this::readSqlScript).orElse(null);
    Boolean continueOnFailure = step.optional("continueOnFailure", Conversions.bool()).orElse(null);
    Optional<Duration> timeout = step.optional("timeout", Conversions.positiveDuration());
    RetrySettings retry = step.fields("retry").map(this::readRetry).orElse(null);
    Optional<Duration> heartbeatTimeout =
        step.optional("heartbeatTimeout", Conversions.positiveDuration());
    Optional<Duration> attemptTimeout =
        step.optional("attemptTimeout", Conversions.positiveDuration());
    if (timeout.isPresent()
        && attemptTimeout.isPresent()
        && attemptTimeout.get().compareTo(timeout.get()) > 0) {
      problems.at(
          step.lineOf("attemptTimeout"),
          step.pathOf("attemptTimeout"),
          "must not be longer than the step's timeout "
              + timeout.get()
              + " (timeout bounds the whole step, all attempts together)");
    }
    Optional<Duration> attemptBound = attemptTimeout.isPresent() ? attemptTimeout : timeout;
    if (attemptBound.isPresent()
        && heartbeatTimeout.isPresent()
        && heartbeatTimeout.get().compareTo(attemptBound.get()) >= 0) {
      problems.at(
          step.lineOf("heartbeatTimeout"),
          step.pathOf("heartbeatTimeout"),
          "must be shorter than the step's "
              + (attemptTimeout.isPresent() ? "attemptTimeout " : "timeout ")
              + attemptBound.get());
    }
    if (index.isEmpty() || name.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new StepDefinition(
            index.get(),
            name.get(),
            runProfile,
            executable,
            continueOnFailure,
            timeout.orElse(null),
            retry,
            heartbeatTimeout.orElse(null),
            attemptTimeout.orElse(null),
            sqlScript));
  }

  private Optional<RunProfileStep> readRunProfile(Fields r) {
    r.allowOnly(RUN_PROFILE_KEYS);
    Optional<String> system = r.required("connectedSystem", Conversions.nonBlankText());
    Optional<String> profile = r.required("runProfile", Conversions.nonBlankText());
    if (system.isEmpty() || profile.isEmpty()) {
      return Optional.empty();
    }
    systems
        .flatMap(index -> index.problem(system.get(), profile.get()))
        .ifPresent(
            message ->
                problems.at(r.lineOf("connectedSystem"), r.pathOf("connectedSystem"), message));
    return Optional.of(new RunProfileStep(system.get(), profile.get()));
  }

  private Optional<ExecutableStep> readExecutable(Fields e) {
    e.allowOnly(EXECUTABLE_KEYS);
    Optional<String> path =
        e.required(
            "path", Conversions.nonBlankText().check(p -> ExecutablePaths.problem(p).orElse(null)));
    List<String> args = e.listOf("args", Conversions.text());
    Optional<String> workingDirectory =
        e.optional(
            "workingDirectory",
            Conversions.nonBlankText()
                .check(p -> ExecutablePaths.directoryProblem(p).orElse(null)));
    Map<String, String> env = e.textMap("env");
    e.node("env")
        .filter(ConfigNode.MapNode.class::isInstance)
        .map(ConfigNode.MapNode.class::cast)
        .ifPresent(map -> map.entries().forEach(this::checkEnvEntry));
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Limits limits = e.fields("limits").map(this::readLimits).orElse(null);
    return Optional.of(
        new ExecutableStep(path.get(), args, workingDirectory.orElse(null), env, limits));
  }

  private Optional<SqlScriptStep> readSqlScript(Fields q) {
    q.allowOnly(SQL_SCRIPT_KEYS);
    Optional<String> connection = q.required("connection", Conversions.nonBlankText());
    Optional<String> path =
        q.required(
            "path",
            Conversions.nonBlankText().check(p -> ExecutablePaths.scriptProblem(p).orElse(null)));
    if (connection.isEmpty() || path.isEmpty()) {
      return Optional.empty();
    }
    sqlScripts.ifPresent(
        index -> {
          index
              .connectionProblem(connection.get())
              .ifPresent(
                  message -> problems.at(q.lineOf("connection"), q.pathOf("connection"), message));
          index
              .scriptProblem(path.get())
              .ifPresent(message -> problems.at(q.lineOf("path"), q.pathOf("path"), message));
        });
    return Optional.of(new SqlScriptStep(connection.get(), path.get()));
  }

  /**
   * An env entry needs a valid variable name, and a value that looks like a secret must be a
   * reference, so that the value never enters the schedule or a workflow history.
   */
  private void checkEnvEntry(ConfigNode.Entry entry) {
    if (!entry.key().matches("[A-Za-z_][A-Za-z0-9_]*")) {
      problems.at(
          entry.keyLine(),
          entry.value().path(),
          "'" + entry.key() + "' is not a valid environment variable name");
    }
    if (!(entry.value() instanceof ConfigNode.ScalarNode scalar) || scalar.isNull()) {
      return;
    }
    String value = scalar.text();
    SecretReference example = suggestedReference(entry.key());
    if (SecretReference.isMalformedReference(value)) {
      problems.at(
          scalar.line(),
          scalar.path(),
          "'"
              + value
              + "' is not a valid secret reference; write "
              + SecretReference.SYNTAX
              + " with a NAME of letters, digits, '.', '_' and '-', e.g. '"
              + example
              + "'");
    } else if (!value.isEmpty()
        && !SecretReference.isReference(value)
        && SecretReference.looksLikeSecretName(entry.key())) {
      problems.at(
          scalar.line(),
          scalar.path(),
          "'"
              + entry.key()
              + "' looks like a secret and must not be written into a schedule: write '"
              + example
              + "' and give the worker the value as file '"
              + example.name()
              + "' in its secrets folder (jimflow.secrets.dir) or as environment variable "
              + example.environmentVariable());
    }
  }

  private static SecretReference suggestedReference(String key) {
    String name =
        key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-").replaceAll("^-+", "");
    return new SecretReference(name.isEmpty() ? "name" : name);
  }

  private Limits readLimits(Fields l) {
    l.allowOnly(LIMIT_KEYS);
    Conversion<Integer> positive =
        Conversions.integer().check(v -> v < 1 ? "must be at least 1 (got " + v + ")" : null);
    return new Limits(
        l.optional("cpuSeconds", positive).map(Integer::longValue).orElse(null),
        l.optional("memoryMegabytes", positive).map(Integer::longValue).orElse(null),
        l.optional("openFiles", positive).orElse(null));
  }

  private RetrySettings readRetry(Fields r) {
    r.allowOnly(RETRY_KEYS);
    Integer attempts =
        r.optional("maximumAttempts", Conversions.integerIn(1, MAX_ATTEMPTS)).orElse(null);
    Duration initial = r.optional("initialInterval", Conversions.positiveDuration()).orElse(null);
    Double backoff =
        r.optional(
                "backoffCoefficient",
                Conversions.decimal()
                    .check(
                        b ->
                            b < 1.0 || b > MAX_BACKOFF
                                ? b + " is out of range 1.0-" + MAX_BACKOFF
                                : null))
            .orElse(null);
    return new RetrySettings(attempts, initial, backoff);
  }
}
