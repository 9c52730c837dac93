package io.jimflow.worker.metrics;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.metrics.ScheduleWatch;
import io.jimflow.metrics.StoreGauges;
import io.jimflow.store.Store;
import io.jimflow.workitem.WorkItemCensus;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import java.time.Clock;
import java.time.Duration;
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
    executor.scheduleWithFixedDelay(
        () -> refresh(gauges, census, watch, metrics), 0, millis, TimeUnit.MILLISECONDS);
    return executor;
  }

  private static void refresh(
      StoreGauges gauges, WorkItemCensus census, ScheduleWatch watch, JimflowMetrics metrics) {
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
    try {
      watch.read().forEach(metrics::schedule);
    } catch (RuntimeException e) {
      log.debug("could not read the schedules", e);
    }
  }
}
