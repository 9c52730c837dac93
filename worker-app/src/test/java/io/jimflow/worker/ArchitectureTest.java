package io.jimflow.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static io.jimflow.worker.Modules.ACTIVITIES;
import static io.jimflow.worker.Modules.STARTER;
import static io.jimflow.worker.Modules.WORKER;
import static io.jimflow.worker.Modules.WORKFLOWS;
import static io.jimflow.worker.Modules.in;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchRule;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.workflow.WorkflowInterface;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module rules of docs/architecture.md's module map, checked on the compiled classes of each
 * module.
 */
class ArchitectureTest {

  /** The configuration files' reader, shared by the starter and the activities. */
  private static final String CONFIG = "io.jimflow.config..";

  @Test
  void workflowsDependOnTheTemporalSdkOnly() {
    classes()
        .that()
        .resideOutsideOfPackage(CONFIG)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "javax.annotation..",
            // AES-GCM of the payload codec.
            "javax.crypto..",
            "io.temporal..",
            // Temporal's payloads are protobuf messages (read by JimflowDataConverter).
            "com.google.protobuf..",
            "com.fasterxml.jackson.annotation..",
            "org.slf4j..",
            "io.jimflow..")
        .check(WORKFLOWS);
    noClasses()
        .should()
        .dependOnClassesThat(
            in("classes of activities, starter or worker-app", ACTIVITIES, STARTER, WORKER))
        .check(WORKFLOWS);
  }

  /**
   * The configuration tree reader lives in the workflows module only so that the starter and the
   * activities can share it: it may use the YAML parser, and no other class of the module may use
   * it (workflow code reads no configuration).
   */
  @Test
  void theSharedConfigurationReaderIsUsedByNoWorkflowCode() {
    classes()
        .that()
        .resideInAPackage(CONFIG)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "com.fasterxml.jackson.core..",
            "com.fasterxml.jackson.dataformat.yaml..",
            "org.yaml.snakeyaml..",
            CONFIG)
        .check(WORKFLOWS);
    noClasses()
        .that()
        .resideOutsideOfPackage(CONFIG)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(CONFIG)
        .check(WORKFLOWS);
  }

  /**
   * The workflows module's plumbing: the configuration reader, payload encryption, the workers'
   * registration and secret references. It serves the worker and the starter; workflow code never
   * reaches it.
   */
  private static final String[] PLUMBING = {
    CONFIG, "io.jimflow.encryption..", "io.jimflow.registration..", "io.jimflow.secrets.."
  };

  /**
   * {@code workflows} holds workflow code and its contracts: no class in a package that holds a
   * workflow implementation, and nothing a workflow implementation uses, depends on the module's
   * plumbing ({@link #PLUMBING}) or on a YAML parser.
   */
  @Test
  void workflowCodeCannotReachThePlumbing() {
    Set<String> workflowPackages =
        WORKFLOWS.stream()
            .filter(ArchitectureTest::implementsAWorkflowInterface)
            .map(JavaClass::getPackageName)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(workflowPackages)
        .as("the rule sees every package of workflow implementations")
        .contains(
            "io.jimflow.schedule",
            "io.jimflow.workitem",
            "io.jimflow.maintenance",
            "io.jimflow.resource",
            "io.jimflow.runrecords",
            "io.jimflow.exampledata");
    Set<String> reachable =
        reachableFromWorkflowImplementations().stream()
            .map(JavaClass::getName)
            .collect(Collectors.toSet());
    noClasses()
        .that(
            DescribedPredicate.describe(
                "classes of the packages of workflow implementations, and the classes workflow"
                    + " implementations use",
                c ->
                    workflowPackages.contains(c.getPackageName())
                        || reachable.contains(c.getName())))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(PLUMBING)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("com.fasterxml.jackson.dataformat.yaml..", "org.yaml..")
        .check(WORKFLOWS);
  }

  private static boolean implementsAWorkflowInterface(JavaClass c) {
    return !c.isInterface()
        && c.getAllRawInterfaces().stream()
            .anyMatch(i -> i.isAnnotatedWith(WorkflowInterface.class));
  }

  /**
   * One package, one module: a package name is declared in the main code of one module only, so the
   * package alone says where a class is (a capability's contract in {@code io.jimflow.<name>}, its
   * activities in {@code io.jimflow.<name>.activities}).
   */
  @Test
  void noPackageIsDeclaredInTwoModules() {
    Map<String, Set<String>> modulesByPackage = new TreeMap<>();
    Map<String, JavaClasses> modules =
        Map.of(
            "workflows",
            WORKFLOWS,
            "activities",
            ACTIVITIES,
            "starter",
            STARTER,
            "worker-app",
            WORKER);
    modules.forEach(
        (module, classes) ->
            classes.forEach(
                c ->
                    modulesByPackage
                        .computeIfAbsent(c.getPackageName(), p -> new TreeSet<>())
                        .add(module)));
    assertThat(modulesByPackage)
        .as("the rule sees the packages of every module")
        .containsKeys(
            "io.jimflow.schedule",
            "io.jimflow.schedule.activities",
            "io.jimflow.cli",
            "io.jimflow.worker");
    assertThat(modulesByPackage)
        .as("packages declared in more than one module")
        .allSatisfy((pkg, in) -> assertThat(in).as(pkg).hasSize(1));
  }

  /** The longest a main source file may be: a longer class does more than one job; split it. */
  private static final int MAX_MAIN_LINES = 400;

  /** No main class is over 400 lines, in any module. */
  @Test
  void noMainSourceFileIsOver400Lines() throws IOException {
    Path home = TemporalCli.projectHome().orElseThrow();
    Map<String, Long> lines = new TreeMap<>();
    for (String module : List.of("workflows", "activities", "starter", "worker-app")) {
      try (Stream<Path> files = Files.walk(home.resolve(module).resolve("src/main/java"))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          try (Stream<String> text = Files.lines(file)) {
            lines.put(home.relativize(file).toString().replace('\\', '/'), text.count());
          }
        }
      }
    }
    assertThat(lines)
        .as("the rule sees the main sources of every module")
        .containsKeys(
            "workflows/src/main/java/io/jimflow/workitem/WorkItemWorkflowImpl.java",
            "activities/src/main/java/io/jimflow/connector/ldap/LdapDirectory.java",
            "starter/src/main/java/io/jimflow/client/ExecutionClient.java",
            "worker-app/src/main/java/io/jimflow/worker/dev/EmbeddedStoreServer.java");
    Map<String, Long> tooLong = new TreeMap<>(lines);
    tooLong.values().removeIf(n -> n <= MAX_MAIN_LINES);
    assertThat(tooLong).as("main source files over " + MAX_MAIN_LINES + " lines").isEmpty();
  }

  @Test
  void activitiesDoNotDependOnTheStarterOrTheWorkerApp() {
    noClasses()
        .should()
        .dependOnClassesThat(in("starter classes", STARTER))
        .orShould()
        .dependOnClassesThat(in("worker-app classes", WORKER))
        .check(ACTIVITIES);
  }

  @Test
  void theStarterDoesNotDependOnActivitiesOrTheWorkerApp() {
    noClasses()
        .should()
        .dependOnClassesThat(in("activities classes", ACTIVITIES))
        .orShould()
        .dependOnClassesThat(in("worker-app classes", WORKER))
        .orShould()
        .dependOnClassesThat()
        .resideInAPackage("org.springframework..")
        .check(STARTER);
  }

  /**
   * The store owns its tables: only its repositories (and the worker's wiring of its data source)
   * speak JDBC. Everyone else hands a store transaction on to them. The one exception is the dev
   * services' embedded PostgreSQL, which creates the store's account and database on its server.
   */
  @Test
  void onlyTheStoreTouchesJdbc() {
    ArchRule rule =
        noClasses()
            .that()
            .resideOutsideOfPackages("io.jimflow.store..", "io.jimflow.worker.store..")
            .and()
            .doNotHaveFullyQualifiedName("io.jimflow.worker.dev.EmbeddedStoreServer")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.sql..", "javax.sql..");
    rule.check(WORKFLOWS);
    rule.check(ACTIVITIES);
    rule.check(STARTER);
    rule.check(WORKER);
  }

  /**
   * Workflow code and everything it calls in the workflows module (decisions, payloads, helpers)
   * must replay the same commands every time: no I/O, no clocks, randomness, environment or threads
   * but those of {@code Workflow}. See the determinism note in io.jimflow.schedule's package-info.
   */
  @Test
  void workflowCodeAndEverythingItCallsIsDeterministic() {
    Set<JavaClass> reachable = reachableFromWorkflowImplementations();
    assertThat(reachable.stream().map(JavaClass::getSimpleName))
        .as("the rule sees the workflows' helpers, not only the implementations")
        .contains("WorkItemWorkflowImpl", "WorkItemLifecycle", "StepBoard", "FailurePolicies");
    Set<String> names = reachable.stream().map(JavaClass::getName).collect(Collectors.toSet());
    noClasses()
        .that(
            DescribedPredicate.describe(
                "workflow implementations and the classes they use",
                c -> names.contains(c.getName())))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio.file..", "java.net..", "java.sql..", CONFIG)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName(Thread.class.getName())
        .orShould()
        .dependOnClassesThat(NONDETERMINISTIC_TYPES)
        .orShould()
        .callMethodWhere(NONDETERMINISTIC_CALLS)
        .orShould()
        .callConstructorWhere(NEW_RANDOM)
        .check(WORKFLOWS);
  }

  /** Randomness, timers and thread pools outside the workflow's control. */
  private static final DescribedPredicate<JavaClass> NONDETERMINISTIC_TYPES =
      DescribedPredicate.describe(
          "ThreadLocalRandom, Timer or java.util.concurrent executors and futures",
          c ->
              Set.of(
                      "java.util.Timer",
                      "java.util.concurrent.ThreadLocalRandom",
                      "java.util.concurrent.Executor",
                      "java.util.concurrent.Executors",
                      "java.util.concurrent.ExecutorService",
                      "java.util.concurrent.ScheduledExecutorService",
                      "java.util.concurrent.ThreadPoolExecutor",
                      "java.util.concurrent.ForkJoinPool",
                      "java.util.concurrent.CompletableFuture")
                  .contains(c.getName()));

  /**
   * A random source of its own: workflow code uses the replay-safe {@code Workflow.newRandom()}.
   */
  private static final DescribedPredicate<JavaConstructorCall> NEW_RANDOM =
      DescribedPredicate.describe(
          "new Random or new SecureRandom",
          call ->
              Set.of("java.util.Random", "java.security.SecureRandom")
                  .contains(call.getTargetOwner().getName()));

  /** Methods that read the clock, the environment or a random source. */
  private static final Map<String, Set<String>> FORBIDDEN_CALLS =
      Map.of(
          "java.lang.System",
          Set.of("currentTimeMillis", "nanoTime", "getenv", "getProperty", "getProperties"),
          "java.lang.Math",
          Set.of("random"),
          "java.lang.StrictMath",
          Set.of("random"),
          "java.util.UUID",
          Set.of("randomUUID"),
          "java.time.Clock",
          Set.of("systemUTC", "systemDefaultZone"));

  private static final DescribedPredicate<JavaMethodCall> NONDETERMINISTIC_CALLS =
      DescribedPredicate.describe(
          "System clocks, environment or properties, Math.random, UUID.randomUUID, the system"
              + " Clock, or java.time's now()",
          call -> {
            String owner = call.getTargetOwner().getName();
            String method = call.getName();
            return FORBIDDEN_CALLS.getOrDefault(owner, Set.of()).contains(method)
                || (owner.startsWith("java.time.") && method.equals("now"));
          });

  /** The workflow implementations and, transitively, every class of the module they use. */
  private static Set<JavaClass> reachableFromWorkflowImplementations() {
    Deque<JavaClass> todo = new ArrayDeque<>();
    WORKFLOWS.stream().filter(ArchitectureTest::implementsAWorkflowInterface).forEach(todo::add);
    Set<String> moduleClasses =
        WORKFLOWS.stream().map(JavaClass::getName).collect(Collectors.toSet());
    Map<String, JavaClass> seen = new HashMap<>();
    while (!todo.isEmpty()) {
      JavaClass next = todo.pop();
      if (seen.putIfAbsent(next.getName(), next) != null) {
        continue;
      }
      next.getDirectDependenciesFromSelf().stream()
          .map(d -> d.getTargetClass().getBaseComponentType())
          .filter(c -> moduleClasses.contains(c.getName()))
          .forEach(todo::add);
    }
    return Set.copyOf(seen.values());
  }
}
