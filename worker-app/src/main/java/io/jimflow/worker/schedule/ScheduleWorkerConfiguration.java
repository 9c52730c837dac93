package io.jimflow.worker.schedule;

import io.jimflow.resource.ResourceActivitiesImpl;
import io.jimflow.steps.ExecutableRunner;
import io.jimflow.steps.RunProfileExecutor;
import io.jimflow.steps.StepActivitiesImpl;
import io.jimflow.steps.UnconfiguredRunProfileExecutor;
import java.nio.file.Path;
import java.util.HashSet;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the schedules task queue; application.yaml registers {@code
 * ScheduleExecutionWorkflowImpl}, {@code ResourceLockWorkflowImpl} and the {@code stepActivities}
 * and {@code resourceActivities} beans on it.
 */
@Configuration
public class ScheduleWorkerConfiguration {

  @Bean
  ExecutableRunner executableRunner(StepSettings settings) {
    StepSettings.Executables executables = settings.executables();
    return new ExecutableRunner(
        resolveAgainstHome(executables.root()),
        new HashSet<>(executables.envAllowList()),
        executables.outputLimit(),
        System.getenv());
  }

  @Bean
  @ConditionalOnMissingBean(RunProfileExecutor.class)
  RunProfileExecutor runProfileExecutor() {
    return new UnconfiguredRunProfileExecutor();
  }

  @Bean
  StepActivitiesImpl stepActivities(RunProfileExecutor runProfiles, ExecutableRunner executables) {
    return new StepActivitiesImpl(runProfiles, executables);
  }

  @Bean
  ResourceActivitiesImpl resourceActivities(RunProfileExecutor runProfiles) {
    return new ResourceActivitiesImpl(runProfiles);
  }

  static Path resolveAgainstHome(Path path) {
    if (path.isAbsolute()) {
      return path.normalize();
    }
    String home = System.getProperty("jimflow.home", System.getenv("JIMFLOW_HOME"));
    Path base = home == null || home.isBlank() ? Path.of("") : Path.of(home);
    return base.resolve(path).toAbsolutePath().normalize();
  }
}
