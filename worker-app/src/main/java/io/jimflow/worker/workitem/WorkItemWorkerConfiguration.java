package io.jimflow.worker.workitem;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.workitem.RunawayHandlers;
import io.jimflow.workitem.TemporalWorkItemControl;
import io.jimflow.workitem.WorkItemActivitiesImpl;
import io.jimflow.workitem.WorkItemHandler;
import io.jimflow.workitem.WorkItemHandlerRegistry;
import io.jimflow.workitem.WorkItemManagerActivitiesImpl;
import io.jimflow.workitem.kinds.DirectorySnapshotHandler;
import io.jimflow.workitem.kinds.LineCountHandler;
import io.temporal.client.WorkflowClient;
import java.time.Clock;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the work item queues, which {@code TemporalWorkersConfiguration} registers. A
 * program adds its own kinds by declaring {@link WorkItemHandler} beans.
 */
@Configuration
public class WorkItemWorkerConfiguration {

  @Bean
  LineCountHandler lineCountHandler() {
    return new LineCountHandler(new ObjectMapper());
  }

  @Bean
  DirectorySnapshotHandler directorySnapshotHandler() {
    return new DirectorySnapshotHandler(new ObjectMapper(), Clock.systemUTC());
  }

  @Bean
  WorkItemHandlerRegistry workItemHandlerRegistry(List<WorkItemHandler> handlers) {
    return new WorkItemHandlerRegistry(handlers);
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
