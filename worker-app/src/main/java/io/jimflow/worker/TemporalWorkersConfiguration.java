package io.jimflow.worker;

import io.jimflow.common.JimflowDataConverter;
import io.jimflow.registration.WorkerRegistration;
import io.jimflow.schedule.ParallelSteps;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.ScheduleExecutionWorkflowImpl;
import io.jimflow.worker.workitem.WorkItemSettings;
import io.temporal.spring.boot.autoconfigure.template.NamespaceTemplate;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * This process's Temporal workers, one per {@link WorkerRegistration}: each registers its queue's
 * workflow implementations and this application's bean of each of its activity interfaces, with
 * {@link WorkerTuning}'s options. {@link WorkerLifecycle} starts and stops them.
 *
 * <p>Workflows are registered with {@link JimflowDataConverter#WORKFLOW_OPTIONS}, so an input a
 * workflow cannot read fails that execution at once (naming the workflow type, what it expected and
 * what came) instead of retrying its first workflow task for ever. The factory is the Spring Boot
 * starter's, with its client, interceptors and plugins; only the workers are made here, so that the
 * queue names and registrations have one source.
 */
@Configuration(proxyBeanMethods = false)
public class TemporalWorkersConfiguration {

  private static final Logger log = LoggerFactory.getLogger(TemporalWorkersConfiguration.class);

  @Bean
  WorkerFactory temporalWorkerFactory(
      @Qualifier("temporalRootNamespaceTemplate") NamespaceTemplate namespace,
      ListableBeanFactory beans,
      WorkItemSettings workItems,
      @Value("${jimflow.steps.maxima.parallel-steps:" + ParallelSteps.DEFAULT_MAXIMUM + "}")
          int maxParallelSteps) {
    // A maximum below 1 stops the worker's start here, before any execution runs.
    new ParallelSteps(maxParallelSteps);
    WorkerFactory factory = namespace.getWorkersTemplate().getWorkerFactory();
    for (WorkerRegistration registration : WorkerRegistration.values()) {
      Worker worker =
          factory.newWorker(registration.taskQueue(), options(registration, workItems).build());
      List<Class<?>> types = new ArrayList<>(registration.workflows());
      if (types.remove(ScheduleExecutionWorkflowImpl.class)) {
        // The worker's maximum reaches its executions as a registration constant.
        worker.registerWorkflowImplementationFactory(
            ScheduleExecutionWorkflow.class,
            () -> new ScheduleExecutionWorkflowImpl(maxParallelSteps),
            JimflowDataConverter.WORKFLOW_OPTIONS);
      }
      if (!types.isEmpty()) {
        worker.registerWorkflowImplementationTypes(
            JimflowDataConverter.WORKFLOW_OPTIONS, types.toArray(Class<?>[]::new));
      }
      for (Class<?> activities : registration.activities()) {
        worker.registerActivitiesImplementations(beans.getBean(activities));
      }
      log.debug(
          "Worker on {}: workflows {}, activities {}",
          registration.taskQueue(),
          registration.workflows(),
          registration.activities());
    }
    return factory;
  }

  /** jimflow's worker options; the work item runs' slot count is the items' free resource. */
  static WorkerOptions.Builder options(
      WorkerRegistration registration, WorkItemSettings workItems) {
    WorkerOptions.Builder options = WorkerTuning.apply(WorkerOptions.newBuilder());
    if (registration == WorkerRegistration.WORK_ITEM_RUNS) {
      options.setMaxConcurrentActivityExecutionSize(workItems.slots());
    }
    return options;
  }
}
