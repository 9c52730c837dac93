package io.jimflow.worker.metrics;

import io.jimflow.common.TaskQueues;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.metrics.ScheduleAlarms;
import io.jimflow.metrics.ScheduleState;
import io.jimflow.metrics.ScheduleWatch;
import io.jimflow.metrics.StoreGauges;
import io.jimflow.metrics.TaskQueuePollers;
import io.jimflow.schedule.NotificationWorkflow;
import io.jimflow.store.Store;
import io.jimflow.workitem.activities.WorkItemCensus;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * jimflow's domain metrics on the worker's Prometheus endpoint ({@code /actuator/prometheus}):
 * activities record them as things happen; the gauges that describe the whole installation (when
 * each schedule last succeeded, pending exports, work items by state, the schedules as Temporal
 * describes them) are also read every {@code jimflow.metrics.refresh-interval}, so that a freshly
 * started worker reports them too.
 */
@Configuration
public class MetricsConfiguration {

  private static final Logger log = LoggerFactory.getLogger(MetricsConfiguration.class);

  @Bean
  JimflowMetrics jimflowMetrics(MeterRegistry registry) {
    return new JimflowMetrics(registry);
  }

  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService domainGaugeRefresh(
      JimflowMetrics metrics,
      Store store,
      DataPlaneConfig config,
      WorkflowClient client,
      @Value("${jimflow.metrics.refresh-interval:30s}") Duration interval) {
    StoreGauges gauges = new StoreGauges(store, config.systemNames(), metrics, Clock.systemUTC());
    WorkItemCensus census = new WorkItemCensus(client);
    TaskQueuePollers pollers =
        new TaskQueuePollers(client.getWorkflowServiceStubs(), client.getOptions().getNamespace());
    ScheduleWatch watch =
        new ScheduleWatch(
            ScheduleClient.newInstance(
                client.getWorkflowServiceStubs(),
                ScheduleClientOptions.newBuilder()
                    .setNamespace(client.getOptions().getNamespace())
                    .setDataConverter(client.getOptions().getDataConverter())
                    .build()));
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "jimflow-metrics-refresh");
              thread.setDaemon(true);
              return thread;
            });
    long millis = Math.max(1000, interval.toMillis());
    ScheduleAlarms alarms = new ScheduleAlarms();
    executor.scheduleWithFixedDelay(
        () -> {
          refresh(gauges, census, metrics);
          poll(pollers, metrics);
          watch(watch, alarms, metrics, client);
        },
        0,
        millis,
        TimeUnit.MILLISECONDS);
    return executor;
  }

  private static void refresh(StoreGauges gauges, WorkItemCensus census, JimflowMetrics metrics) {
    // A store or server that is not there yet only delays the gauges; health reports the cause.
    try {
      gauges.refresh();
    } catch (RuntimeException e) {
      log.debug("could not read the store's gauges", e);
    }
    try {
      census.count().forEach((state, count) -> metrics.workItems(state.name(), count));
    } catch (RuntimeException e) {
      log.debug("could not count the work items", e);
    }
  }

  private static void poll(TaskQueuePollers pollers, JimflowMetrics metrics) {
    try {
      pollers
          .read()
          .forEach(
              (queue, byType) ->
                  byType.forEach((type, count) -> metrics.taskQueuePollers(queue, type, count)));
    } catch (RuntimeException e) {
      log.debug("could not describe the task queues", e);
    }
  }

  /**
   * Describes the schedules to Prometheus and notifies of runs they skipped or missed since the
   * last reading: as a notification workflow whose id names the change, so that of several workers
   * noticing it, one sends it.
   */
  private static void watch(
      ScheduleWatch watch, ScheduleAlarms alarms, JimflowMetrics metrics, WorkflowClient client) {
    try {
      List<ScheduleState> states = watch.read();
      states.forEach(metrics::schedule);
      for (ScheduleAlarms.Alarm alarm : alarms.changes(states)) {
        NotificationWorkflow notification =
            client.newWorkflowStub(
                NotificationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId("jimflow-notify/" + alarm.key())
                    .setTaskQueue(TaskQueues.SCHEDULES)
                    .setWorkflowIdReusePolicy(
                        WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                    .build());
        try {
          WorkflowClient.start(notification::deliver, alarm.notification());
        } catch (WorkflowExecutionAlreadyStarted e) {
          // Another worker noticed the same change first.
        }
      }
    } catch (RuntimeException e) {
      log.debug("could not read the schedules", e);
    }
  }
}
