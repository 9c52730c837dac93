package io.jimflow.worker;

import io.jimflow.config.JimflowHome;
import io.jimflow.worker.dev.DevMode;
import io.jimflow.worker.dev.DevServer;
import io.jimflow.worker.dev.DevServerException;
import io.jimflow.worker.dev.DirectoryServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import sun.misc.Signal;

/** The jimflow worker: polls jimflow's task queues and runs its workflows and activities. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class WorkerApplication {

  public static void main(String[] args) throws InterruptedException {
    if (Arrays.asList(args).contains(DirectoryServer.FLAG)) {
      DirectoryServer.main(args);
      return;
    }
    List<String> springArgs = new ArrayList<>(Arrays.asList(args));
    springArgs.remove(DevMode.FLAG);
    SpringApplication app = new SpringApplication(WorkerApplication.class);
    DevMode devMode = null;
    if (DevMode.requested(args)) {
      quietTemporalLoggingUntilSpringTakesOver();
      int httpPort = configuredPort(args);
      if (!hasPortSetting(args) && DevServer.isListening("127.0.0.1", httpPort)) {
        // A second `./jimflow dev` shares the server; it must not fail on the first one's HTTP
        // port.
        httpPort = DevServer.freePort();
        springArgs.add("--server.port=" + httpPort);
      }
      DevMode dev;
      try {
        dev = DevMode.prepare(httpPort, !storeConfigured(args));
      } catch (DevServerException e) {
        System.err.println("jimflow dev: " + e.getMessage());
        System.exit(1);
        return;
      }
      springArgs.add("--spring.temporal.connection.target=" + dev.target());
      springArgs.add("--jimflow.worker.register-search-attributes=true");
      // The Directory's ${secret:directory-password} falls back to the embedded directory's
      // development password, as the banner says.
      springArgs.add("--jimflow.dev-mode=true");
      // A developer's own machine: the worker's port (health, metrics, the codec server that
      // decrypts for whoever asks) is reachable from this machine only.
      if (!hasSetting(args, "--server.address=", "SERVER_ADDRESS")) {
        springArgs.add("--server.address=127.0.0.1");
      }
      // ... and the UI of the dev server decodes payloads through its codec server, on loopback.
      if (!hasSetting(args, "--jimflow.codec-server.enabled=", "JIMFLOW_CODEC_SERVER_ENABLED")) {
        springArgs.add("--jimflow.codec-server.enabled=true");
      }
      // A developer's own machine: health shows its components without a token.
      springArgs.add("--management.endpoint.health.show-details=always");
      // A developer's own machine: `jimflow systems clear/delete` work out of the box there.
      if (!hasSetting(
          args,
          "--jimflow.maintenance.destructive-tasks-enabled=",
          "JIMFLOW_MAINTENANCE_DESTRUCTIVE_TASKS_ENABLED")) {
        springArgs.add("--jimflow.maintenance.destructive-tasks-enabled=true");
      }
      // A developer's own machine: the shipped work item kinds, reading and writing only below
      // data/work-items.
      if (!hasSetting(args, "--jimflow.work-items.demo-kinds=", "JIMFLOW_WORK_ITEMS_DEMO_KINDS")) {
        springArgs.add("--jimflow.work-items.demo-kinds=true");
      }
      if (!hasSetting(args, "--jimflow.work-items.roots=", "JIMFLOW_WORK_ITEMS_ROOTS")) {
        springArgs.add("--jimflow.work-items.roots=" + devWorkItemRoot());
      }
      devMode = dev;
      app.addListeners((ApplicationReadyEvent ready) -> printDevBanner(dev, ready));
    } else {
      quietTemporalLoggingUntilSpringTakesOver();
      Optional<EarlySearchAttributeCheck.Failure> mistyped =
          EarlySearchAttributeCheck.run(args, System.getenv());
      if (mistyped.isPresent()) {
        System.err.println(mistyped.get().message());
        System.exit(1);
        return;
      }
    }
    AtomicReference<ConfigurableApplicationContext> context = new AtomicReference<>();
    exitZeroOnTermination(context, devMode);
    try {
      context.set(app.run(springArgs.toArray(String[]::new)));
    } catch (RuntimeException startFailed) {
      // Spring Boot has reported why (a short analysis where one exists); no second stack trace.
      System.exit(1);
    }
  }

  /**
   * A SIGTERM (or Ctrl+C) is the normal way to stop a worker: close the context (graceful worker
   * shutdown within the grace period) and exit 0, where the JVM's default would exit 143.
   */
  private static void exitZeroOnTermination(
      AtomicReference<ConfigurableApplicationContext> context, DevMode devMode) {
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(
          new Signal(name),
          signal -> {
            Thread stopper =
                new Thread(
                    () -> {
                      // Still starting: Spring's own shutdown hook closes what exists so far.
                      ConfigurableApplicationContext started = context.get();
                      if (started != null) {
                        started.close();
                      }
                      if (devMode != null) {
                        devMode.close();
                      }
                      System.exit(0);
                    },
                    "jimflow-shutdown");
            stopper.start();
          });
    }
  }

  /** {@code data/work-items} of the jimflow home, created if missing. */
  private static Path devWorkItemRoot() {
    Path root = JimflowHome.dir().resolve("data").resolve("work-items");
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      System.err.println("jimflow dev: cannot create " + root + ": " + e.getMessage());
    }
    return root;
  }

  /** Before Spring configures logging, logback's default would print the SDK's debug lines. */
  private static void quietTemporalLoggingUntilSpringTakesOver() {
    if (LoggerFactory.getLogger("io.temporal") instanceof ch.qos.logback.classic.Logger logger) {
      logger.setLevel(ch.qos.logback.classic.Level.WARN);
    }
    if (LoggerFactory.getLogger("io.grpc") instanceof ch.qos.logback.classic.Logger logger) {
      logger.setLevel(ch.qos.logback.classic.Level.WARN);
    }
  }

  /** The HTTP port the settings name (8080 by default), 0 when it cannot be told in advance. */
  private static int configuredPort(String[] args) {
    String value =
        Arrays.stream(args)
            .filter(a -> a.startsWith("--server.port="))
            .map(a -> a.substring("--server.port=".length()))
            .reduce((first, last) -> last)
            .orElse(System.getenv().getOrDefault("SERVER_PORT", "8080"));
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Whether the store's URL is set (else the worker uses the embedded PostgreSQL). */
  private static boolean storeConfigured(String[] args) {
    String fromEnvironment = System.getenv("JIMFLOW_STORE_URL");
    return Arrays.stream(args)
            .anyMatch(a -> a.startsWith("--jimflow.store.url=") && a.length() > 20)
        || (fromEnvironment != null && !fromEnvironment.isBlank());
  }

  private static boolean hasPortSetting(String[] args) {
    return hasSetting(args, "--server.port=", "SERVER_PORT");
  }

  private static boolean hasSetting(String[] args, String argument, String environmentVariable) {
    return Arrays.stream(args).anyMatch(a -> a.startsWith(argument))
        || System.getenv(environmentVariable) != null;
  }

  private static void printDevBanner(DevMode dev, ApplicationReadyEvent ready) {
    int httpPort =
        ready.getApplicationContext() instanceof WebServerApplicationContext web
            ? web.getWebServer().getPort()
            : -1;
    System.out.println();
    System.out.println("jimflow dev is running");
    System.out.println(
        "  Temporal server  "
            + dev.target()
            + (dev.ownsServer()
                ? " (started here; data in data/temporal.db)"
                : " (already running, reused)"));
    System.out.println("  Temporal UI      " + dev.uiUrl());
    System.out.println("  Directory        " + dev.directoryNote());
    dev.storeNote().ifPresent(note -> System.out.println("  Store            " + note));
    System.out.println("  Worker health    http://localhost:" + httpPort + "/actuator/health");
    System.out.println(
        "  Codec server     "
            + DevMode.codecEndpoint(httpPort)
            + (dev.ownsServer() ? " (the UI decodes payloads through it)" : ""));
    System.out.println(
        "  Stop with Ctrl+C (SIGTERM): running steps checkpoint and end gracefully.");
    System.out.println();
  }
}
