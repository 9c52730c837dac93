package io.jimflow.cli;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps library logging out of the CLI's output: warnings and errors only, on stderr, one line each
 * ({@code WARN ChannelManager - ...}), so that {@code --json} output stays one clean document and a
 * failure is the command's own one line.
 *
 * <p>The CLI logs through SLF4J's simple provider, which reads these settings when the first logger
 * is made; a {@code -Dorg.slf4j.simpleLogger...} setting given on the command line wins.
 */
public final class CliLogging {

  private static final Map<String, String> SETTINGS =
      Map.of(
          "org.slf4j.simpleLogger.defaultLogLevel", "warn",
          "org.slf4j.simpleLogger.logFile", "System.err",
          "org.slf4j.simpleLogger.showThreadName", "false",
          "org.slf4j.simpleLogger.showShortLogName", "true");

  /**
   * gRPC logs through java.util.logging, with a stack trace for a name it cannot resolve; the
   * command reports that failure in its own one line. Held here so that the setting stays.
   */
  private static final Logger GRPC = Logger.getLogger("io.grpc");

  private CliLogging() {}

  public static void quiet() {
    SETTINGS.forEach(
        (key, value) -> {
          if (System.getProperty(key) == null) {
            System.setProperty(key, value);
          }
        });
    GRPC.setLevel(Level.SEVERE);
  }
}
