package io.jimflow.worker;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.common.SearchAttributeSetup;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Before the workers poll: jimflow's search attributes must exist in the namespace with the right
 * types, or every workflow task that sets one fails and executions stay Running for ever. Missing
 * ones are registered when {@code jimflow.worker.register-search-attributes} allows it (dev mode
 * does); otherwise the worker refuses to start, naming each attribute and the fix.
 */
@Component
public class SearchAttributeCheck implements InitializingBean {

  private static final Logger log = LoggerFactory.getLogger(SearchAttributeCheck.class);

  /** How long a server that does not answer yet (e.g. still starting) is waited for. */
  private static final Duration SERVER_WAIT = Duration.ofSeconds(90);

  private final WorkflowServiceStubs stubs;
  private final String namespace;
  private final WorkerSettings settings;

  public SearchAttributeCheck(
      WorkflowServiceStubs stubs,
      @Value("${spring.temporal.namespace:default}") String namespace,
      WorkerSettings settings) {
    this.stubs = stubs;
    this.namespace = namespace;
    this.settings = settings;
  }

  @Override
  public void afterPropertiesSet() {
    SearchAttributeSetup setup = new SearchAttributeSetup(stubs, namespace);
    SearchAttributeSetup.Report report =
        untilServerAnswers(
            () -> settings.registerSearchAttributes() ? setup.registerMissing() : setup.inspect());
    if (!report.registered().isEmpty()) {
      log.info(
          "Registered search attributes in namespace {}: {}",
          namespace,
          report.registered().stream().map(sa -> sa.name() + "=" + sa.type()).toList());
    }
    if (!report.ready()) {
      throw new SearchAttributesNotReadyException(
          report, "--address " + stubs.getOptions().getTarget());
    }
  }

  private SearchAttributeSetup.Report untilServerAnswers(
      java.util.function.Supplier<SearchAttributeSetup.Report> call) {
    long deadline = System.nanoTime() + SERVER_WAIT.toNanos();
    while (true) {
      try {
        return call.get();
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        boolean transient_ =
            code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
        if (!transient_ || System.nanoTime() > deadline) {
          throw new SearchAttributesNotReadyException(
              "Cannot check jimflow's search attributes in namespace "
                  + namespace
                  + " at "
                  + stubs.getOptions().getTarget()
                  + ": "
                  + code
                  + " "
                  + e.getStatus().getDescription(),
              e);
        }
        log.info("Temporal at {} does not answer yet; waiting", stubs.getOptions().getTarget());
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
