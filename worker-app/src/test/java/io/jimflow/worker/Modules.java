package io.jimflow.worker;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.jimflow.worker.dev.TemporalCli;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The compiled main classes of each module, imported once for all architecture tests of a run.
 *
 * <p>Each module is imported alone, so rules can name the module they hold for; rules between
 * modules go by class, through {@link #in}. No package is declared in two modules ({@link
 * ArchitectureTest#noPackageIsDeclaredInTwoModules}).
 */
final class Modules {

  private static final Path HOME = TemporalCli.projectHome().orElseThrow();

  static final JavaClasses WORKFLOWS = module("workflows");
  static final JavaClasses ACTIVITIES = module("activities");
  static final JavaClasses STARTER = module("starter");
  static final JavaClasses WORKER = module("worker-app");

  private Modules() {}

  /** The classes of the given modules, whatever their package. */
  static DescribedPredicate<JavaClass> in(String description, JavaClasses... modules) {
    Set<String> names =
        Arrays.stream(modules)
            .flatMap(JavaClasses::stream)
            .map(JavaClass::getName)
            .collect(Collectors.toSet());
    return DescribedPredicate.describe(
        description, c -> names.contains(c.getBaseComponentType().getName()));
  }

  private static JavaClasses module(String name) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(HOME.resolve(name).resolve("target/classes"));
  }
}
