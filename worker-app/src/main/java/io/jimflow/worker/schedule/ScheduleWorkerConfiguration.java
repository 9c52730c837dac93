package io.jimflow.worker.schedule;

import io.jimflow.config.JimflowHome;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.resource.activities.ResourceActivitiesImpl;
import io.jimflow.schedule.activities.NotificationActivitiesImpl;
import io.jimflow.schedule.activities.StepActivitiesImpl;
import io.jimflow.schedule.steps.Containment;
import io.jimflow.schedule.steps.ExecutableRunner;
import io.jimflow.schedule.steps.ProgramAllowList;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.SqlScriptRunner;
import io.jimflow.schedule.steps.SqlScriptsConfig;
import io.jimflow.schedule.steps.UnconfiguredRunProfileExecutor;
import io.jimflow.secrets.activities.Secrets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the schedules task queue: the step and resource activities, which {@code
 * TemporalWorkersConfiguration} registers on it.
 */
@Configuration
public class ScheduleWorkerConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ScheduleWorkerConfiguration.class);

  @Bean
  ExecutableRunner executableRunner(StepSettings settings, Secrets secrets) {
    StepSettings.Executables executables = settings.executables();
    return new ExecutableRunner(
        JimflowHome.resolve(executables.root()),
        ProgramAllowList.of(executables.allowed()),
        new HashSet<>(executables.envAllowList()),
        executables.outputLimit(),
        System.getenv(),
        secrets,
        containment(executables.containment()));
  }

  private static Containment containment(StepSettings.ContainmentMode mode) {
    if (mode == StepSettings.ContainmentMode.OFF) {
      log.warn(
          "Executable steps run without containment: a program that daemonises outlives its step");
      return Containment.none();
    }
    Containment detected = Containment.detect();
    if (!detected.contains()) {
      if (mode == StepSettings.ContainmentMode.REQUIRED) {
        throw new IllegalStateException(
            "jimflow.steps.executables.containment=required, but python3 is not on the PATH");
      }
      log.warn(
          "python3 is not on the PATH: Executable steps run without containment (a program that"
              + " daemonises outlives its step; resource limits and run-as users are refused)");
    }
    return detected;
  }

  @Bean
  @ConditionalOnMissingBean(RunProfileExecutor.class)
  RunProfileExecutor runProfileExecutor() {
    return new UnconfiguredRunProfileExecutor();
  }

  /**
   * SqlScript steps' connections and scripts root, from {@code jimflow.steps.sql-scripts.config}; a
   * file that is there but invalid stops the worker, as {@code connected-systems.yaml} does.
   */
  @Bean
  SqlScriptRunner sqlScriptRunner(StepSettings settings, Secrets secrets) {
    Path file = JimflowHome.resolve(settings.sqlScripts().config());
    if (!Files.isRegularFile(file)) {
      log.info("SqlScript steps unavailable: no {}", file);
      return SqlScriptRunner.unconfigured("this worker has no " + file);
    }
    SqlScriptsConfig config = SqlScriptsConfig.load(file);
    log.info(
        "SqlScript steps: scripts below {}, connections {}", config.root(), config.connections());
    if (!Files.isDirectory(config.root())) {
      log.warn("The SQL scripts root {} (from {}) does not exist", config.root(), file);
    }
    return SqlScriptRunner.of(config, secrets);
  }

  @Bean
  StepActivitiesImpl stepActivities(
      RunProfileExecutor runProfiles,
      ExecutableRunner executables,
      SqlScriptRunner sqlScripts,
      Secrets secrets,
      JimflowMetrics metrics,
      StepMaximaSettings maxima) {
    return new StepActivitiesImpl(
        runProfiles, executables, sqlScripts, secrets, metrics, maxima.maxima());
  }

  /**
   * Posts notifications to {@code jimflow.notifications.webhook-url}, or to a schedule's own
   * webhook if {@code jimflow.notifications.allowed-urls} allows it; a malformed setting stops the
   * worker.
   */
  @Bean
  NotificationActivitiesImpl notificationActivities(
      Secrets secrets,
      @Value("${jimflow.notifications.webhook-url:}") String webhookUrl,
      @Value("${jimflow.notifications.allowed-urls:}") List<String> allowedUrls) {
    NotificationActivitiesImpl notifications =
        new NotificationActivitiesImpl(
            webhookUrl, allowedUrls.stream().filter(u -> !u.isBlank()).toList(), secrets);
    log.info(
        "Notifications: {}",
        webhookUrl.isBlank() ? "no webhook (jimflow.notifications.webhook-url)" : "webhook set");
    return notifications;
  }

  @Bean
  ResourceActivitiesImpl resourceActivities(RunProfileExecutor runProfiles) {
    return new ResourceActivitiesImpl(runProfiles);
  }
}
