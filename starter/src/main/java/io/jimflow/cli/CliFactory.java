package io.jimflow.cli;

import io.jimflow.cli.shared.ClientFactory;
import io.jimflow.cli.shared.ConnectionOptions;
import picocli.CommandLine;

/**
 * Creates command objects (and their mixins) as picocli does, giving the {@link ConnectionOptions}
 * of commands that talk to Temporal the {@link ClientFactory} to connect with.
 */
public final class CliFactory implements CommandLine.IFactory {

  private final ClientFactory clients;

  public CliFactory(ClientFactory clients) {
    this.clients = clients;
  }

  @Override
  public <K> K create(Class<K> type) throws Exception {
    K created = CommandLine.defaultFactory().create(type);
    if (created instanceof ConnectionOptions connection) {
      connection.clients = clients;
    }
    return created;
  }
}
