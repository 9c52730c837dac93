package io.jimflow.cli;

import picocli.CommandLine;

/** Creates command objects, giving those that talk to Temporal the {@link ClientFactory}. */
final class CliFactory implements CommandLine.IFactory {

  private final ClientFactory clients;

  CliFactory(ClientFactory clients) {
    this.clients = clients;
  }

  @Override
  public <K> K create(Class<K> type) throws Exception {
    try {
      return type.getDeclaredConstructor(ClientFactory.class).newInstance(clients);
    } catch (NoSuchMethodException noClientNeeded) {
      return CommandLine.defaultFactory().create(type);
    }
  }
}
