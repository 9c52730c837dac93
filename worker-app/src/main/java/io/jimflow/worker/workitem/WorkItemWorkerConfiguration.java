package io.jimflow.worker.workitem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.workitem.activities.RunawayHandlers;
import io.jimflow.workitem.activities.TemporalWorkItemControl;
import io.jimflow.workitem.activities.WorkItemActivitiesImpl;
import io.jimflow.workitem.activities.WorkItemHandler;
import io.jimflow.workitem.activities.WorkItemHandlerRegistry;
import io.jimflow.workitem.activities.WorkItemManagerActivitiesImpl;
import io.jimflow.workitem.kinds.DirectorySnapshotHandler;
import io.jimflow.workitem.kinds.LineCountHandler;
import io.temporal.client.WorkflowClient;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the work item queues, which {@code TemporalWorkersConfiguration} registers. A
 * program adds its own kinds by declaring {@link WorkItemHandler} beans.
 */
@Configuration
public class WorkItemWorkerConfiguration {

  /** The shipped kinds: only in dev mode or when {@code jimflow.work-items.demo-kinds} is on. */
  @Bean
  @ConditionalOnProperty(prefix = "jimflow.work-items", name = "demo-kinds", havingValue = "true")
  LineCountHandler lineCountHandler(WorkItemKindSettings kinds) {
    return new LineCountHandler(new ObjectMapper(), kinds.workItemRoots());
  }

  @Bean
  @ConditionalOnProperty(prefix = "jimflow.work-items", name = "demo-kinds", havingValue = "true")
  DirectorySnapshotHandler directorySnapshotHandler(WorkItemKindSettings kinds) {
    return new DirectorySnapshotHandler(
        new ObjectMapper(), Clock.systemUTC(), kinds.workItemRoots());
  }

  @Bean
  WorkItemHandlerRegistry workItemHandlerRegistry(ObjectProvider<WorkItemHandler> handlers) {
    // A worker without the demo kinds and without kinds of its own has none: that is allowed.
    return new WorkItemHandlerRegistry(handlers.orderedStream().toList());
  }

  /** Handler threads that ignored their kill; the worker is unhealthy while one runs. */
  @Bean
  RunawayHandlers runawayHandlers() {
    return new RunawayHandlers();
  }

  @Bean
  WorkItemActivitiesImpl workItemActivities(
      WorkItemHandlerRegistry handlers,
      WorkflowClient client,
      WorkItemSettings settings,
      RunawayHandlers runaways) {
    return new WorkItemActivitiesImpl(
        handlers, new TemporalWorkItemControl(client), settings.timings(), runaways);
  }

  @Bean
  WorkItemManagerActivitiesImpl workItemManagerActivities(WorkflowClient client) {
    return new WorkItemManagerActivitiesImpl(client);
  }
}
