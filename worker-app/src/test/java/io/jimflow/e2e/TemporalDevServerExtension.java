package io.jimflow.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives e2e tests an {@link E2eEnvironment}: one real Temporal dev server per test run, shared by
 * every test class that uses this extension, stopped when the run ends.
 *
 * <pre>{@code
 * @ExtendWith(TemporalDevServerExtension.class)
 * class SomethingIT {
 *   @Test
 *   void works(E2eEnvironment env) { ... env.client() ... env.sharedWorker() ... }
 * }
 * }</pre>
 */
public final class TemporalDevServerExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TemporalDevServerExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == E2eEnvironment.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return environment(context);
  }

  /** The run's environment, started on first use. */
  public static E2eEnvironment environment(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            "environment", key -> new Resource(E2eEnvironment.start()), Resource.class)
        .environment();
  }

  /** Closes the environment when the root context (the whole run) closes. */
  private record Resource(E2eEnvironment environment)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      environment.close();
    }
  }
}
