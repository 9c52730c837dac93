package io.jimflow.worker;

import io.jimflow.common.JimflowDataConverter;
import io.temporal.common.converter.DataConverter;
import io.temporal.spring.boot.WorkflowImplementationOptionsCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the workers read payloads: an input a workflow cannot read fails that execution at once
 * (naming the workflow type, what it expected and what came) instead of retrying its first workflow
 * task for ever; an unreadable signal is dropped and an unreadable update rejected.
 */
@Configuration(proxyBeanMethods = false)
public class TemporalConfiguration {

  @Bean
  public DataConverter mainDataConverter() {
    return JimflowDataConverter.create();
  }

  @Bean
  public WorkflowImplementationOptionsCustomizer failOnUnreadableInput() {
    return (options, worker, implementationClass, workflowMethod) ->
        options.setFailWorkflowExceptionTypes(
            JimflowDataConverter.WORKFLOW_OPTIONS.getFailWorkflowExceptionTypes());
  }
}
