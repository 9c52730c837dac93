package io.jimflow.schedule.file;

import io.jimflow.config.tree.ConfigNode;
import io.jimflow.config.tree.Conversion;
import io.jimflow.config.tree.Conversions;
import io.jimflow.config.tree.Fields;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.YamlTreeReader;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.Trigger;
import io.jimflow.schedule.deploy.BuiltInSchedules;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
          "notifications",
          "steps");
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
  private final TriggerReader triggerReader;
  private final StepReader stepReader;

  private String scope;

  private ScheduleDefinitions(
      Problems problems,
      Optional<ConnectedSystemsIndex> systems,
      Optional<SqlScriptsIndex> sqlScripts) {
    this.problems = problems;
    this.triggerReader = new TriggerReader(problems);
    this.stepReader = new StepReader(problems, systems, sqlScripts);
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
    Trigger trigger = s.fields("trigger").flatMap(triggerReader::read).orElse(null);
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

    String notificationUrl =
        s.fields("notifications")
            .flatMap(
                n ->
                    n.allowOnly(List.of("webhookUrl"))
                        .optional("webhookUrl", Conversions.nonBlankText().check(WEBHOOK_URL)))
            .orElse(null);

    List<StepDefinition> steps = new ArrayList<>();
    Map<String, Integer> stepNameLines = new HashMap<>();
    List<ConfigNode> stepNodes = s.items("steps");
    if (stepNodes.isEmpty()) {
      problems.at(s.lineOf("steps"), s.pathOf("steps"), "a schedule needs at least one step");
    }
    for (ConfigNode node : stepNodes) {
      Fields.of(node, problems)
          .flatMap(step -> stepReader.read(step, stepNameLines))
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
            steps,
            notificationUrl));
  }

  /**
   * A schedule's webhook: an http(s) URL or a secret reference. Whether a worker posts to it is the
   * worker's decision ({@code jimflow.notifications.allowed-urls}).
   */
  private static final java.util.function.Function<String, String> WEBHOOK_URL =
      url ->
          url.matches("https?://[^\\s@/]+(/\\S*)?") || url.matches("\\$\\{secret:[^}]+}")
              ? null
              : "'" + url + "' is not an http(s) URL or a ${secret:NAME} reference";

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
    Trigger trigger = s.fields("trigger").flatMap(triggerReader::read).orElse(null);
    ScheduleDefinition defaults = BuiltInSchedules.defaults(id);
    return new ScheduleDefinition(
        id, defaults.name(), defaults.description(), enabled, trigger, null, null, null, List.of());
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

  @SuppressWarnings("unchecked")
  private static <T> Map<String, T> ordered(Object... pairs) {
    Map<String, T> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (T) pairs[i + 1]);
    }
    return map;
  }
}
