package io.jimflow.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.workflow.WorkflowInterface;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module rules of the README's module map, checked on the compiled classes of each module. */
class ArchitectureTest {

  private static final Path HOME = TemporalCli.projectHome().orElseThrow();

  private static JavaClasses module(String name) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(HOME.resolve(name).resolve("target/classes"));
  }

  private static final JavaClasses WORKFLOWS = module("workflows");
  private static final JavaClasses ACTIVITIES = module("activities");
  private static final JavaClasses STARTER = module("starter");
  private static final JavaClasses WORKER = module("worker-app");

  private static DescribedPredicate<JavaClass> in(String description, JavaClasses module) {
    Set<String> names = module.stream().map(JavaClass::getName).collect(Collectors.toSet());
    return DescribedPredicate.describe(description, c -> names.contains(c.getName()));
  }

  @Test
  void workflowsDependOnTheTemporalSdkOnly() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "javax.annotation..",
            "io.temporal..",
            "com.fasterxml.jackson.annotation..",
            "org.slf4j..",
            "io.jimflow..")
        .check(WORKFLOWS);
    noClasses()
        .should()
        .dependOnClassesThat(in("classes of activities, starter or worker-app", union()))
        .check(WORKFLOWS);
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

  @Test
  void workflowImplementationsDoNoIoAndUseWorkflowTimeOnly() {
    DescribedPredicate<JavaClass> workflowImpl =
        DescribedPredicate.describe(
            "workflow implementations",
            c ->
                !c.isInterface()
                    && c.getAllRawInterfaces().stream()
                        .anyMatch(i -> i.isAnnotatedWith(WorkflowInterface.class)));
    noClasses()
        .that(workflowImpl)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio.file..", "java.net..")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "getenv", String.class)
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .allowEmptyShould(true)
        .check(WORKFLOWS);
  }

  private static JavaClasses union() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPaths(
            HOME.resolve("activities/target/classes"),
            HOME.resolve("starter/target/classes"),
            HOME.resolve("worker-app/target/classes"));
  }
}
