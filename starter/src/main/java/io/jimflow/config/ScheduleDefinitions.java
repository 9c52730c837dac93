package io.jimflow.config;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Conversion;
import io.jimflow.config.tree.Conversions;
import io.jimflow.config.tree.Fields;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.Suggestions;
import io.jimflow.config.tree.YamlTreeReader;
import io.jimflow.schedule.ExecutablePaths;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepDefinition.RunProfileStep;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import io.jimflow.schedule.Trigger;
import io.jimflow.schedules.BuiltInSchedules;
import io.jimflow.secrets.SecretReference;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code config/schedules.yaml} into {@link ScheduleDefinition}s, validating everything
 * first: either every schedule is valid or a {@link io.jimflow.config.tree.ConfigException} lists
 * every problem of the file with its line.
 */
public final class ScheduleDefinitions {

  /** The file the CLI reads when none is given. */
  public static final String DEFAULT_FILE = "config/schedules.yaml";

  static final List<String> FILE_KEYS = List.of("scope", "schedules");

  private static final java.util.regex.Pattern SCOPE =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  static final List<String> SCHEDULE_KEYS =
      List.of(
          "id",
          "name",
          "description",
          "enabled",
          "trigger",
          "onStepFailure",
          "overlap",
          "catchupWindow",
          "steps");
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
  static final Duration MIN_CATCHUP_WINDOW = Duration.ofSeconds(10);

  private static final Map<String, FailurePolicy> FAILURE_POLICIES =
      ordered("stop", FailurePolicy.STOP, "continue", FailurePolicy.CONTINUE);
  private static final Map<String, OverlapPolicy> OVERLAP_POLICIES =
      ordered(
          "skip", OverlapPolicy.SKIP,
          "buffer-one", OverlapPolicy.BUFFER_ONE,
          "allow-all", OverlapPolicy.ALLOW_ALL,
          "cancel-other", OverlapPolicy.CANCEL_OTHER);

  private final Problems problems;

  /** Run profile references are checked against it when the schedules file has one beside it. */
  private final Optional<ConnectedSystemsIndex> systems;

  /** SqlScript steps are checked against it when the schedules file has one beside it. */
  private final Optional<SqlScriptsIndex> sqlScripts;

  private String scope;

  private ScheduleDefinitions(
      Problems problems,
      Optional<ConnectedSystemsIndex> systems,
      Optional<SqlScriptsIndex> sqlScripts) {
    this.problems = problems;
    this.systems = systems;
    this.sqlScripts = sqlScripts;
  }

  /**
   * Loads and validates a schedules file.
   *
   * @throws io.jimflow.config.tree.ConfigException listing every problem, if there is any
   */
  public static List<ScheduleDefinition> load(Path file) {
    return loadFile(file).definitions();
  }

  /**
   * Loads and validates a schedules file with its scope: the {@code scope:} key, or else the file's
   * base name ({@code hr} for {@code hr.yaml}).
   *
   * @throws io.jimflow.config.tree.ConfigException listing every problem, if there is any
   */
  public static ScheduleFile loadFile(Path file) {
    Problems problems = new Problems(file.toString());
    Optional<ConfigNode> root = YamlTreeReader.read(file, file.toString(), problems);
    ScheduleDefinitions reader =
        new ScheduleDefinitions(
            problems, ConnectedSystemsIndex.besides(file), SqlScriptsIndex.besides(file));
    List<ScheduleDefinition> definitions = root.map(reader::readFile).orElse(List.of());
    problems.throwIfAny();
    return new ScheduleFile(
        reader.scope != null ? reader.scope : ScheduleFile.defaultScope(file), definitions);
  }

  /** Validates YAML text; {@code source} names it in problems. See {@link #load(Path)}. */
  public static List<ScheduleDefinition> parse(String yaml, String source) {
    Problems problems = new Problems(source);
    Optional<ConfigNode> root = YamlTreeReader.read(new StringReader(yaml), problems);
    List<ScheduleDefinition> definitions =
        root.map(
                r ->
                    new ScheduleDefinitions(problems, Optional.empty(), Optional.empty())
                        .readFile(r))
            .orElse(List.of());
    problems.throwIfAny();
    return definitions;
  }

  private List<ScheduleDefinition> readFile(ConfigNode root) {
    Optional<Fields> file = Fields.of(root, problems);
    if (file.isEmpty()) {
      return List.of();
    }
    file.get().allowOnly(FILE_KEYS);
    file.get()
        .optional("scope", Conversions.nonBlankText())
        .ifPresent(
            value -> {
              if (SCOPE.matcher(value).matches()) {
                scope = value;
              } else {
                problems.at(
                    file.get().lineOf("scope"),
                    "scope",
                    "'"
                        + value
                        + "' is not a scope name: letters, digits, '.', '_' or '-', at most 63,"
                        + " e.g. hr-imports");
              }
            });
    if (!file.get().has("schedules")) {
      problems.at(root.line(), "", "missing required key 'schedules' (a list of schedules)");
      return List.of();
    }
    List<ScheduleDefinition> definitions = new ArrayList<>();
    Map<String, Integer> idLines = new HashMap<>();
    for (ConfigNode node : file.get().items("schedules")) {
      Fields.of(node, problems)
          .flatMap(fields -> readSchedule(fields, idLines))
          .ifPresent(definitions::add);
    }
    return definitions;
  }

  private Optional<ScheduleDefinition> readSchedule(Fields s, Map<String, Integer> idLines) {
    s.allowOnly(SCHEDULE_KEYS);
    Optional<String> id = s.required("id", scheduleId());
    id.ifPresent(
        value -> {
          Integer first = idLines.putIfAbsent(value, s.lineOf("id"));
          if (first != null) {
            problems.at(
                s.lineOf("id"),
                s.pathOf("id"),
                "duplicate schedule id '" + value + "' (first used on line " + first + ")");
          }
        });
    if (id.isPresent() && BuiltInSchedules.isBuiltIn(id.get())) {
      return Optional.of(readBuiltIn(s, id.get()));
    }
    String name = s.optional("name", Conversions.nonBlankText()).orElse(id.orElse(""));
    String description = s.optional("description", Conversions.text()).orElse(null);
    boolean enabled = s.optional("enabled", Conversions.bool()).orElse(true);
    Trigger trigger = s.fields("trigger").flatMap(this::readTrigger).orElse(null);
    FailurePolicy onStepFailure =
        s.optional("onStepFailure", Conversions.oneOf(FAILURE_POLICIES)).orElse(null);
    OverlapPolicy overlap = s.optional("overlap", Conversions.oneOf(OVERLAP_POLICIES)).orElse(null);
    Duration catchupWindow =
        s.optional(
                "catchupWindow",
                Conversions.positiveDuration()
                    .check(
                        d ->
                            d.compareTo(MIN_CATCHUP_WINDOW) < 0
                                ? "must be at least PT10S (Temporal's minimum)"
                                : null))
            .orElse(null);

    List<StepDefinition> steps = new ArrayList<>();
    Map<String, Integer> stepNameLines = new HashMap<>();
    List<ConfigNode> stepNodes = s.items("steps");
    if (stepNodes.isEmpty()) {
      problems.at(s.lineOf("steps"), s.pathOf("steps"), "a schedule needs at least one step");
    }
    for (ConfigNode node : stepNodes) {
      Fields.of(node, problems)
          .flatMap(step -> readStep(step, stepNameLines))
          .ifPresent(steps::add);
    }
    if (id.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ScheduleDefinition(
            id.get(),
            name,
            description,
            enabled,
            trigger,
            onStepFailure,
            overlap,
            catchupWindow,
            steps));
  }

  /**
   * An entry of a built-in schedule's reserved id: it may re-time (trigger) or pause (enabled) the
   * built-in, nothing else; a missing trigger keeps the built-in's default.
   */
  private ScheduleDefinition readBuiltIn(Fields s, String id) {
    for (String key : SCHEDULE_KEYS) {
      if (!BuiltInSchedules.ALLOWED_KEYS.contains(key) && s.has(key)) {
        problems.at(
            s.lineOf(key),
            s.pathOf(key),
            "'"
                + key
                + "' cannot be set on the built-in schedule '"
                + id
                + "': only 'trigger' and 'enabled' may be changed (its work is fixed)");
      }
    }
    boolean enabled = s.optional("enabled", Conversions.bool()).orElse(true);
    Trigger trigger = s.fields("trigger").flatMap(this::readTrigger).orElse(null);
    ScheduleDefinition defaults = BuiltInSchedules.defaults(id);
    return new ScheduleDefinition(
        id, defaults.name(), defaults.description(), enabled, trigger, null, null, null, List.of());
  }

  private Optional<Trigger> readTrigger(Fields t) {
    t.allowOnly(TRIGGER_KEYS);
    List<String> cron = new ArrayList<>();
    for (ConfigNode node : t.itemsOrSingle("cron")) {
      Conversions.text()
          .check(
              expression ->
                  CronExpressions.problem(expression)
                      .map(p -> "'" + expression + "' is not a valid cron expression: " + p)
                      .orElse(null))
          .convert(node, problems)
          .ifPresent(cron::add);
    }
    Trigger.SpecificTimes at = t.fields("at").map(this::readSpecificTimes).orElse(null);
    Trigger.Interval every = t.fields("every").flatMap(this::readInterval).orElse(null);
    String zone = t.optional("timezone", Conversions.timeZone()).map(ZoneId::getId).orElse(null);
    if (!t.has("cron") && !t.has("at") && !t.has("every")) {
      problems.at(
          t.node().line(),
          t.node().path(),
          "a trigger needs cron, at or every (leave the trigger out for a schedule run only by"
              + " hand)");
      return Optional.empty();
    }
    return Optional.of(new Trigger(cron, at, every, zone));
  }

  private Trigger.SpecificTimes readSpecificTimes(Fields at) {
    at.allowOnly(AT_KEYS);
    List<DayOfWeek> days = at.listOf("days", Conversions.dayOfWeek());
    List<LocalTime> times = at.listOf("times", Conversions.timeOfDay());
    if (!at.has("times")) {
      problems.at(
          at.node().line(), at.node().path(), "missing required key 'times' (e.g. [\"02:00\"])");
    } else if (at.itemsOrSingle("times").isEmpty()) {
      problems.at(
          at.lineOf("times"),
          at.pathOf("times"),
          "list at least one time of day (e.g. [\"02:00\"])");
    }
    return new Trigger.SpecificTimes(days, times);
  }

  private Optional<Trigger.Interval> readInterval(Fields every) {
    every.allowOnly(EVERY_KEYS);
    Optional<Integer> minutes =
        every.optional("minutes", Conversions.integer().check(range(1, 1440)));
    Optional<Integer> hours = every.optional("hours", Conversions.integer().check(range(1, 24)));
    if (every.has("minutes") == every.has("hours")) {
      problems.at(
          every.node().line(),
          every.node().path(),
          every.has("minutes")
              ? "give either minutes or hours, not both"
              : "give the interval as minutes or hours (e.g. minutes: 30)");
    }
    Optional<LocalTime> from = every.optional("from", Conversions.timeOfDay());
    Optional<LocalTime> to = every.optional("to", Conversions.timeOfDay());
    if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
      problems.at(
          every.lineOf("to"),
          every.pathOf("to"),
          "'"
              + to.get()
              + "' must be later than from '"
              + from.get()
              + "' (windows end on the same day)");
    }
    List<DayOfWeek> days = every.listOf("days", Conversions.dayOfWeek());
    return Optional.of(
        new Trigger.Interval(
            minutes.orElse(null), hours.orElse(null), from.orElse(null), to.orElse(null), days));
  }

  private Optional<StepDefinition> readStep(Fields step, Map<String, Integer> nameLines) {
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
        r.optional("maximumAttempts", Conversions.integer().check(range(1, MAX_ATTEMPTS)))
            .orElse(null);
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

  private static Conversion<String> scheduleId() {
    return Conversions.nonBlankText()
        .check(
            id ->
                id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
                    ? null
                    : "'"
                        + id
                        + "' is not a valid schedule id (letters, digits, '.', '_' and '-',"
                        + " starting with a letter or digit)");
  }

  private static java.util.function.Function<Integer, String> range(int min, int max) {
    return value ->
        value < min || value > max ? value + " is out of range " + min + "-" + max : null;
  }

  @SuppressWarnings("unchecked")
  private static <T> Map<String, T> ordered(Object... pairs) {
    Map<String, T> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (T) pairs[i + 1]);
    }
    return map;
  }
}
