package io.jimflow.cli.shared;

import io.jimflow.client.ConnectionSettings;
import io.jimflow.client.JimflowClient;

/** How commands obtain a client: connecting for real, or handing out a test's client. */
@FunctionalInterface
public interface ClientFactory {
  public JimflowClient connect(ConnectionSettings settings);
}
