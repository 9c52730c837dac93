package io.jimflow.cli.shared;

import io.jimflow.cli.CliFactory;
import io.jimflow.client.ConnectionSettings;
import io.jimflow.client.JimflowClient;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every command that talks to Temporal shares, each falling back to its variable. */
public class ConnectionOptions {

  @Option(
      names = "--address",
      paramLabel = "HOST:PORT",
      defaultValue = "${env:TEMPORAL_ADDRESS:-" + ConnectionSettings.DEFAULT_ADDRESS + "}",
      description = "Temporal frontend (env TEMPORAL_ADDRESS; default ${DEFAULT-VALUE}).")
  public String address;

  @Option(
      names = "--namespace",
      defaultValue = "${env:TEMPORAL_NAMESPACE:-" + ConnectionSettings.DEFAULT_NAMESPACE + "}",
      description = "Temporal namespace (env TEMPORAL_NAMESPACE; default ${DEFAULT-VALUE}).")
  public String namespace;

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      defaultValue = "${env:TEMPORAL_TLS_CERT}",
      description = "Client certificate (PEM) for mTLS (env TEMPORAL_TLS_CERT).")
  public Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      defaultValue = "${env:TEMPORAL_TLS_KEY}",
      description = "Private key (PKCS#8 PEM) of the client certificate (env TEMPORAL_TLS_KEY).")
  public Path tlsKey;

  @Option(
      names = "--api-key",
      paramLabel = "KEY",
      defaultValue = "${env:TEMPORAL_API_KEY}",
      description = "API key, sent over TLS (env TEMPORAL_API_KEY).")
  public String apiKey;

  @Option(
      names = "--verbose",
      description = "On failure, print the stack trace after the one-line message.")
  public boolean verbose;

  /** How to connect; {@link CliFactory} gives it to the options it creates. */
  public ClientFactory clients;

  public ConnectionSettings settings() {
    return new ConnectionSettings(address, namespace, tlsCert, tlsKey, apiKey);
  }

  /** Connects to Temporal as these options say. */
  public JimflowClient connect() {
    return clients.connect(settings());
  }
}
