package io.jimflow.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.LoggerFactory;

/**
 * Keeps library logging out of the CLI's output: warnings and errors only, on stderr, so that
 * {@code --json} output stays one clean document.
 */
final class CliLogging {

  private CliLogging() {}

  static void quiet() {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    context.reset();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%level %logger{0}: %msg%n");
    encoder.start();
    ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(stderr);
  }
}
