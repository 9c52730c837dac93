package io.jimflow.worker;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Which package may use which inside each module: the map of docs/architecture.md's "Where things
 * live", checked on the compiled classes. A package may use its own classes, the libraries, what
 * every package of its module may use (for activities and the starter: the workflows module's
 * contracts) and the packages its rule names, nothing else. Libraries that mark a boundary (LDAP,
 * CSV, database pools, the CLI parser, encryption) have an owner each, at the end. The module rules
 * are in {@link ArchitectureTest}.
 */
class PackageDependenciesTest {

  /** A module's classes and what each of its packages may use besides the packages it names. */
  private record Module(JavaClasses classes, DescribedPredicate<JavaClass> shared) {}

  private static final DescribedPredicate<JavaClass> LIBRARIES =
      DescribedPredicate.not(resideInAPackage("io.jimflow.."));

  /**
   * Workflows' registration is for the worker alone, and its configuration reader for the few
   * packages that read configuration files (they name {@code config..}).
   */
  private static final DescribedPredicate<JavaClass> WORKFLOWS_CONTRACTS =
      Modules.in("workflows classes", Modules.WORKFLOWS)
          .and(
              DescribedPredicate.not(
                  resideInAnyPackage("io.jimflow.registration", "io.jimflow.config..")));

  private static final Module WORKFLOWS = new Module(Modules.WORKFLOWS, LIBRARIES.as("libraries"));
  private static final Module ACTIVITIES =
      new Module(
          Modules.ACTIVITIES,
          LIBRARIES
              .or(WORKFLOWS_CONTRACTS)
              .as("libraries, workflows classes (not registration, config)"));
  private static final Module STARTER = new Module(Modules.STARTER, ACTIVITIES.shared());
  private static final Module WORKER =
      new Module(
          Modules.WORKER,
          LIBRARIES
              .or(
                  Modules.in(
                      "workflows or activities classes", Modules.WORKFLOWS, Modules.ACTIVITIES))
              .and(DescribedPredicate.not(resideInAPackage("io.jimflow.registration")))
              .as("libraries, workflows or activities classes (not registration)"));

  // workflows

  @Test
  void theCommonTypesUseNoOtherPackage() {
    mayUse(WORKFLOWS, "common");
  }

  @Test
  void payloadEncryptionPlugsIntoTheCommonDataConverter() {
    mayUse(WORKFLOWS, "encryption", "common");
  }

  @Test
  void secretReferencesStandAlone() {
    mayUse(WORKFLOWS, "secrets");
  }

  @Test
  void resourceLocksUseOnlyTheCommonTypes() {
    mayUse(WORKFLOWS, "resource", "common");
  }

  @Test
  void scheduleExecutionsHoldResourceLocks() {
    mayUse(WORKFLOWS, "schedule", "common", "resource");
  }

  @Test
  void maintenanceWorkflowsAreScheduleStepsUnderResourceLocks() {
    mayUse(WORKFLOWS, "maintenance", "resource", "schedule");
  }

  @Test
  void exampleDataGenerationIsAScheduleStep() {
    mayUse(WORKFLOWS, "exampledata", "schedule");
  }

  @Test
  void runRecordsAnswerWithExecutionRecords() {
    mayUse(WORKFLOWS, "runrecords", "schedule");
  }

  @Test
  void workItemsUseOnlyTheCommonTypes() {
    mayUse(WORKFLOWS, "workitem", "common");
  }

  @Test
  void theRegistrationListsEveryCapabilityAndNothingUsesIt() {
    mayUse(
        WORKFLOWS,
        "registration",
        "common",
        "schedule",
        "maintenance",
        "exampledata",
        "resource",
        "runrecords",
        "workitem");
  }

  @Test
  void theConfigurationReaderUsesNoOtherPackage() {
    mayUse(WORKFLOWS, "config..");
  }

  // activities

  @Test
  void theSyncEngineUsesOnlyTheJdk() {
    classes()
        .that()
        .resideInAPackage("io.jimflow.sync")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.jimflow.sync")
        .check(ACTIVITIES.classes());
  }

  @Test
  void theConnectorContractStandsAlone() {
    mayUse(ACTIVITIES, "connector");
  }

  @Test
  void theCsvConnectorUsesOnlyTheConnectorContract() {
    mayUse(ACTIVITIES, "connector.csv", "connector");
  }

  @Test
  void theLdapConnectorExportsTheSyncEnginesChanges() {
    mayUse(ACTIVITIES, "connector.ldap", "connector", "sync");
  }

  @Test
  void theStoreKeepsTheSyncEnginesState() {
    mayUse(ACTIVITIES, "store", "sync");
  }

  @Test
  void sqlScriptTransactionsStandAlone() {
    mayUse(ACTIVITIES, "store.sqlscript");
  }

  @Test
  void theActivitiesSecretsStandAlone() {
    mayUse(ACTIVITIES, "secrets.activities");
  }

  @Test
  void stepRunnersUseSecretsSqlScriptTransactionsAndTheConfigurationReader() {
    mayUse(ACTIVITIES, "schedule.steps", "secrets.activities", "store.sqlscript", "config.tree");
  }

  @Test
  void stepActivitiesUseTheStepRunnersSecretsTheStoreAndTheMetrics() {
    mayUse(
        ACTIVITIES,
        "schedule.activities",
        "schedule.steps",
        "secrets.activities",
        "store",
        "metrics");
  }

  @Test
  void theMetricsReadOnlyTheStore() {
    mayUse(ACTIVITIES, "metrics", "store");
  }

  @Test
  void runRecordsAreReadFromTheStore() {
    mayUse(ACTIVITIES, "runrecords.activities", "store");
  }

  @Test
  void resourceActivitiesAskTheRunProfileExecutor() {
    mayUse(ACTIVITIES, "resource.activities", "schedule.steps");
  }

  @Test
  void theDataPlaneConfigurationReadsSyncRulesAndLdapSettings() {
    mayUse(ACTIVITIES, "dataplane.config", "sync", "store", "connector.ldap", "config.tree");
  }

  @Test
  void theDataPlaneRunsConnectorsTheSyncEngineAndTheStore() {
    mayUse(
        ACTIVITIES,
        "dataplane",
        "dataplane.config",
        "connector",
        "connector.csv",
        "connector.ldap",
        "sync",
        "store",
        "secrets.activities",
        "schedule.steps",
        "metrics");
  }

  @Test
  void maintenanceWorksThroughTheStore() {
    mayUse(ACTIVITIES, "maintenance.activities", "store", "sync", "metrics");
  }

  @Test
  void exampleDataIsWrittenWithoutHelp() {
    mayUse(ACTIVITIES, "exampledata.activities", "files");
  }

  @Test
  void fileRootsStandAlone() {
    mayUse(ACTIVITIES, "files");
  }

  @Test
  void workItemActivitiesStandAlone() {
    mayUse(ACTIVITIES, "workitem.activities");
  }

  @Test
  void workItemKindsPlugIntoTheWorkItemActivities() {
    mayUse(ACTIVITIES, "workitem.kinds", "workitem.activities", "files");
  }

  // starter

  @Test
  void scheduleDeploymentUsesNoOtherStarterPackage() {
    mayUse(STARTER, "schedule.deploy");
  }

  @Test
  void schedulesFilesAreReadWithTheSharedConfigurationReader() {
    mayUse(STARTER, "schedule.file", "schedule.deploy", "config.tree");
  }

  @Test
  void theClientDeploysSchedulesButReadsNoFiles() {
    mayUse(STARTER, "client", "schedule.deploy");
  }

  @Test
  void theCliStartsAnInvocationWithTheCommandGroups() {
    mayUse(STARTER, "cli", "cli..", "client", "config");
  }

  /** A group per entry of {@code jimflow --help}; the groups do not use each other or the root. */
  @Test
  void commandGroupsBuildOnTheSharedCommandsAndOutputOnly() {
    for (String group :
        List.of(
            "cli.setup",
            "cli.schedules",
            "cli.start",
            "cli.executions",
            "cli.items",
            "cli.systems",
            "cli.housekeeping",
            "cli.data",
            "cli.runs",
            "cli.preview")) {
      mayUse(STARTER, group, COMMAND_GROUPS_USE);
    }
  }

  @Test
  void theDemoAppliesAndStartsItsSchedulesAsSchedulesApplyAndStartDo() {
    mayUse(STARTER, "cli.demo", concat(COMMAND_GROUPS_USE, "cli.schedules", "cli.start"));
  }

  @Test
  void theSharedCommandsWriteTheOutputAndMapTheClientsFailures() {
    mayUse(STARTER, "cli.shared", "cli.output", "client", "schedule.deploy", "config.tree");
  }

  @Test
  void theOutputFormatsStandAlone() {
    mayUse(STARTER, "cli.output");
  }

  @Test
  void theClassDataTrainingRunsTheCli() {
    mayUse(STARTER, "cli.training", "cli", "client", "config");
  }

  private static final String[] COMMAND_GROUPS_USE = {
    "cli.shared",
    "cli.output",
    "client",
    "schedule.deploy",
    "schedule.file",
    "config",
    "config.tree"
  };

  private static String[] concat(String[] packages, String... more) {
    return Stream.concat(Arrays.stream(packages), Arrays.stream(more)).toArray(String[]::new);
  }

  // worker-app

  @Test
  void theWorkerStartsTheDevServicesAndTunesItsWorkersForWorkItems() {
    mayUse(WORKER, "worker", "worker.dev", "worker.workitem", "registration");
  }

  @Test
  void healthReadsTheWorkersSettingsAndLifecycle() {
    mayUse(WORKER, "worker.health", "worker");
  }

  @Test
  void workerSecretsMayComeFromTheEmbeddedDevDirectory() {
    mayUse(WORKER, "worker.secrets", "worker.dev");
  }

  @Test
  void theDataPlaneWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.dataplane");
  }

  @Test
  void theExampleDataWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.exampledata");
  }

  @Test
  void theCodecServerUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.codec");
  }

  @Test
  void theDevServicesUseNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.dev");
  }

  @Test
  void theMaintenanceWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.maintenance");
  }

  @Test
  void theMetricsWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.metrics");
  }

  @Test
  void theScheduleWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.schedule");
  }

  @Test
  void theStoreWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.store");
  }

  @Test
  void theWorkItemWiringUsesNoOtherWorkerPackage() {
    mayUse(WORKER, "worker.workitem");
  }

  // every module

  @Test
  void noModuleHasCyclesBetweenItsPackages() {
    for (Module module : List.of(WORKFLOWS, ACTIVITIES, STARTER, WORKER)) {
      slices().matching("io.jimflow.(**)").should().beFreeOfCycles().check(module.classes());
    }
  }

  /**
   * A new package needs a rule above; a package that goes takes its rule along (empty rules fail).
   */
  @Test
  void everyPackageHasARule() {
    assertThat(packages(WORKFLOWS))
        .as("packages of workflows that have a rule here")
        .isSubsetOf(
            "common",
            "config",
            "config.tree",
            "encryption",
            "exampledata",
            "maintenance",
            "registration",
            "resource",
            "runrecords",
            "schedule",
            "secrets",
            "workitem");
    assertThat(packages(ACTIVITIES))
        .as("packages of activities that have a rule here")
        .isSubsetOf(
            "connector",
            "connector.csv",
            "connector.ldap",
            "dataplane",
            "dataplane.config",
            "exampledata.activities",
            "files",
            "maintenance.activities",
            "metrics",
            "resource.activities",
            "runrecords.activities",
            "schedule.activities",
            "schedule.steps",
            "secrets.activities",
            "store",
            "store.sqlscript",
            "sync",
            "workitem.activities",
            "workitem.kinds");
    assertThat(packages(STARTER))
        .as("packages of starter that have a rule here")
        .isSubsetOf(
            "cli",
            "cli.data",
            "cli.demo",
            "cli.executions",
            "cli.housekeeping",
            "cli.items",
            "cli.output",
            "cli.preview",
            "cli.runs",
            "cli.schedules",
            "cli.setup",
            "cli.shared",
            "cli.start",
            "cli.systems",
            "cli.training",
            "client",
            "schedule.deploy",
            "schedule.file");
    assertThat(packages(WORKER))
        .as("packages of worker-app that have a rule here")
        .isSubsetOf(
            "worker",
            "worker.codec",
            "worker.dataplane",
            "worker.dev",
            "worker.exampledata",
            "worker.health",
            "worker.maintenance",
            "worker.metrics",
            "worker.schedule",
            "worker.secrets",
            "worker.store",
            "worker.workitem");
  }

  // libraries with an owner

  @Test
  void onlyTheCsvConnectorReadsAndWritesCsv() {
    onlyIn(ACTIVITIES, "de.siegmar.fastcsv..", "connector.csv");
  }

  @Test
  void onlyTheLdapConnectorAndTheDevDirectorySpeakLdap() {
    onlyIn(ACTIVITIES, "com.unboundid..", "connector.ldap");
    onlyIn(WORKER, "com.unboundid..", "worker.dev");
  }

  @Test
  void onlyTheStoreOpensConnectionPoolsAndMigratesTheSchema() {
    onlyIn(ACTIVITIES, "com.zaxxer..", "store");
    onlyIn(ACTIVITIES, "org.flywaydb..", "store");
    onlyIn(WORKER, "com.zaxxer..", "worker.store");
  }

  @Test
  void onlyTheMetricsAndTheirWiringRecordMeters() {
    onlyIn(ACTIVITIES, "io.micrometer..", "metrics");
    onlyIn(WORKER, "io.micrometer..", "worker.metrics");
  }

  @Test
  void onlyTheDevServicesRunAnEmbeddedPostgres() {
    onlyIn(WORKER, "io.zonky..", "worker.dev");
  }

  @Test
  void onlyTheCliParsesCommandLines() {
    onlyIn(STARTER, "picocli..", "cli..");
  }

  @Test
  void onlyTheDataConverterAndEncryptionHandleProtobufPayloadsInTheWorkflowsModule() {
    onlyIn(WORKFLOWS, "com.google.protobuf..", "common", "encryption");
  }

  @Test
  void onlyPayloadEncryptionUsesCiphers() {
    for (Module module : List.of(WORKFLOWS, ACTIVITIES, STARTER, WORKER)) {
      onlyIn(module, "javax.crypto..", "encryption");
    }
  }

  /**
   * Classes of {@code pkg} (under {@code io.jimflow}, without sub-packages unless it ends in {@code
   * ..}) use nothing of the module but their own package and the {@code allowed} ones.
   */
  private static void mayUse(Module module, String pkg, String... allowed) {
    String[] own =
        Stream.concat(Stream.of(pkg), Arrays.stream(allowed))
            .map(PackageDependenciesTest::jimflow)
            .toArray(String[]::new);
    DescribedPredicate<JavaClass> permitted =
        module
            .shared()
            .or(resideInAnyPackage(own))
            .as("are %s, or in %s", module.shared().getDescription(), String.join(", ", own));
    classes()
        .that()
        .resideInAPackage(jimflow(pkg))
        .should()
        .onlyDependOnClassesThat(permitted)
        .check(module.classes());
  }

  /** Only the {@code owners} (packages under {@code io.jimflow}) use {@code library}. */
  private static void onlyIn(Module module, String library, String... owners) {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            Arrays.stream(owners).map(PackageDependenciesTest::jimflow).toArray(String[]::new))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(library)
        .check(module.classes());
  }

  private static String jimflow(String pkg) {
    return "io.jimflow." + pkg;
  }

  private static List<String> packages(Module module) {
    return module.classes().stream()
        .map(c -> c.getPackageName().substring("io.jimflow.".length()))
        .distinct()
        .sorted()
        .collect(Collectors.toList());
  }
}
