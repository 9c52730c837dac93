package io.jimflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.jimflow.worker.dev.DevServer;
import io.jimflow.worker.dev.TemporalCli;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The production compose file is valid without a Docker engine: {@code docker-compose config -q}
 * (Debian's docker-compose, installed by .ci/run) checks it against the Compose schema. The stack
 * is closed by default, checked everywhere by parsing the files: no port published without a host
 * address, no service running as root, no secret both a step can name and the system uses.
 */
class ComposeFileTest {

  private final Path home = TemporalCli.projectHome().orElseThrow();
  private final Path composeFile = home.resolve("docker-compose.yml");

  /**
   * Services allowed to run as root, and why. None must: PostgreSQL runs as the image's own {@code
   * postgres} user (a new data volume is created owned by it), Temporal, its UI and Prometheus as
   * their images' users, jimflow's services as the worker image's {@code jimflow}.
   */
  private static final Map<String, String> MAY_RUN_AS_ROOT = Map.of();

  /** Services of the system itself (not running steps): every secret they mount is a system one. */
  private static final Set<String> SYSTEM_SERVICES =
      Set.of("postgresql", "temporal", "temporal-ui", "temporal-setup", "prometheus");

  @Test
  void theStackIsClosedByDefault() throws Exception {
    Map<String, Map<String, Object>> services =
        services(composeFile, home.resolve("docker-compose.tls.yml"));

    assertThat(services).containsKeys("postgresql", "temporal", "worker", "prometheus");
    assertThat(closedByDefaultProblems(services)).isEmpty();
    assertThat(published(services))
        .as("only what an operator reaches: the CLI, the UI, the codec server, Prometheus")
        .containsExactlyInAnyOrder(
            "temporal 7233", "temporal-ui 8233", "codec-server 8081", "prometheus 9090");
  }

  @Test
  void anOpenPortARootServiceOrASharedSecretIsFound() {
    Map<String, Map<String, Object>> services =
        parse(
            """
            services:
              temporal:
                user: temporal
                secrets: [postgres-password]
                ports: ["7233:7233", "${X:-0.0.0.0}:8233:8080", "127.0.0.1:1:1"]
              ui:
                ports: [{target: 8080, published: 8080}]
              shell:
                user: "0:0"
              worker:
                user: jimflow
                environment:
                  JIMFLOW_SECRETS_DIR: /run/secrets
                  JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE: /run/secrets/payload-keys
                secrets: [payload-keys, postgres-password, directory-password]
            """);

    assertThat(closedByDefaultProblems(services))
        .containsExactlyInAnyOrder(
            "temporal publishes 7233:7233 on every interface",
            "temporal publishes ${X:-0.0.0.0}:8233:8080 on every interface",
            "ui publishes {target=8080, published=8080} on every interface",
            "ui runs as root",
            "shell runs as root",
            "worker lets steps name the system secret payload-keys",
            "worker lets steps name the system secret postgres-password");
  }

  /** What is wrong with {@code services} against a stack closed by default. */
  static List<String> closedByDefaultProblems(Map<String, Map<String, Object>> services) {
    List<String> problems = new ArrayList<>();
    Set<String> systemSecrets = new LinkedHashSet<>();
    services.forEach(
        (name, service) -> {
          for (Object port : list(service.get("ports"))) {
            if (!onLoopback(port)) {
              problems.add(name + " publishes " + port + " on every interface");
            }
          }
          String user = String.valueOf(service.getOrDefault("user", "")).split(":")[0];
          if ((user.isBlank() || user.equals("0") || user.equals("root"))
              && !MAY_RUN_AS_ROOT.containsKey(name)) {
            problems.add(name + " runs as root");
          }
          Map<String, String> secrets = secretTargets(service);
          if (SYSTEM_SERVICES.contains(name)) {
            systemSecrets.addAll(secrets.keySet());
          }
          environment(service)
              .forEach(
                  (key, value) ->
                      secrets.forEach(
                          (secret, target) -> {
                            if (key.endsWith("_FILE") && value.equals(target)) {
                              systemSecrets.add(secret);
                            }
                          }));
        });
    services.forEach(
        (name, service) -> {
          String stepSecrets = environment(service).get("JIMFLOW_SECRETS_DIR");
          if (stepSecrets != null) {
            secretTargets(service)
                .forEach(
                    (secret, target) -> {
                      if (target.startsWith(stepSecrets + "/") && systemSecrets.contains(secret)) {
                        problems.add(name + " lets steps name the system secret " + secret);
                      }
                    });
          }
        });
    return problems;
  }

  /** A published port bound to a host address that defaults to loopback. */
  private static boolean onLoopback(Object port) {
    String host;
    if (port instanceof Map<?, ?> map) {
      host = String.valueOf(map.containsKey("host_ip") ? map.get("host_ip") : "");
    } else {
      String spec = String.valueOf(port);
      if (spec.startsWith("${")) {
        int end = spec.indexOf('}');
        host = spec.substring(0, end + 1);
        spec = spec.substring(end + 1);
        if (!spec.startsWith(":")) {
          return false;
        }
      } else {
        int colons = spec.length() - spec.replace(":", "").length();
        host = colons >= 2 ? spec.substring(0, spec.indexOf(':')) : "";
      }
    }
    Matcher variable = Pattern.compile("\\$\\{[A-Z_]+:-(.*)}").matcher(host);
    String address = variable.matches() ? variable.group(1) : host;
    return Set.of("127.0.0.1", "::1", "[::1]", "localhost").contains(address);
  }

  /** "service port" of every published port. */
  private static List<String> published(Map<String, Map<String, Object>> services) {
    List<String> published = new ArrayList<>();
    services.forEach(
        (name, service) -> {
          for (Object port : list(service.get("ports"))) {
            String[] parts = String.valueOf(port).replaceFirst("^\\$\\{[^}]*}", "").split(":");
            published.add(name + " " + parts[parts.length - 2]);
          }
        });
    return published;
  }

  /** Secret name to the path it is mounted at. */
  private static Map<String, String> secretTargets(Map<String, Object> service) {
    Map<String, String> targets = new LinkedHashMap<>();
    for (Object secret : list(service.get("secrets"))) {
      if (secret instanceof Map<?, ?> map) {
        String source = String.valueOf(map.get("source"));
        String target = map.containsKey("target") ? String.valueOf(map.get("target")) : source;
        targets.put(source, target.startsWith("/") ? target : "/run/secrets/" + target);
      } else {
        targets.put(String.valueOf(secret), "/run/secrets/" + secret);
      }
    }
    return targets;
  }

  private static Map<String, String> environment(Map<String, Object> service) {
    Map<String, String> environment = new LinkedHashMap<>();
    Object declared = service.get("environment");
    if (declared instanceof Map<?, ?> map) {
      map.forEach((k, v) -> environment.put(String.valueOf(k), String.valueOf(v)));
    } else {
      for (Object entry : list(declared)) {
        String[] kv = String.valueOf(entry).split("=", 2);
        environment.put(kv[0], kv.length > 1 ? kv[1] : "");
      }
    }
    return environment;
  }

  private static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }

  /** The services of {@code files} layered in order (an overlay's keys replace the base's). */
  private static Map<String, Map<String, Object>> services(Path... files) throws Exception {
    Map<String, Map<String, Object>> services = new LinkedHashMap<>();
    for (Path file : files) {
      parse(Files.readString(file))
          .forEach(
              (name, service) ->
                  services.computeIfAbsent(name, n -> new LinkedHashMap<>()).putAll(service));
    }
    return services;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> parse(String yaml) {
    Map<String, Object> root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    Map<String, Map<String, Object>> services = new LinkedHashMap<>();
    ((Map<String, Object>) root.get("services"))
        .forEach((name, service) -> services.put(name, (Map<String, Object>) service));
    return services;
  }

  @Test
  void theComposeFileIsValid() throws Exception {
    assertComposeConfigIsValid(composeFile);
  }

  /**
   * With the TLS overlay nothing is published in clear: the frontend requires mutual TLS, the UI
   * serves https itself, the codec server and Prometheus serve https.
   */
  @Test
  void theTlsOverlayPublishesNothingInClear() throws Exception {
    Map<String, Map<String, Object>> services =
        merged(composeFile, home.resolve("docker-compose.tls.yml"));

    assertThat(servedInClear(services)).isEmpty();
    assertThat(environment(services.get("temporal-ui")))
        .containsEntry("TEMPORAL_UI_SERVER_TLS_CERT", "/certs/ui.pem")
        .containsEntry("TEMPORAL_CORS_ORIGINS", "${JIMFLOW_UI_ORIGIN:-https://localhost:8233}")
        .containsEntry(
            "TEMPORAL_CODEC_ENDPOINT", "${JIMFLOW_CODEC_ENDPOINT:-https://localhost:8081/codec}");
    assertThat(environment(services.get("codec-server")))
        .containsEntry(
            "JIMFLOW_CODEC_SERVER_ALLOWED_ORIGINS", "${JIMFLOW_UI_ORIGIN:-https://localhost:8233}");
    assertThat(Files.readString(home.resolve("docker/prometheus/web-tls.yml")))
        .contains("tls_server_config:", "cert_file: /certs/prometheus.pem");
  }

  @Test
  void aPortServedInClearBesideTheTlsOverlayIsFound() {
    Map<String, Map<String, Object>> services =
        parse(
            """
            services:
              temporal:
                ports: ["127.0.0.1:7233:7233"]
                environment:
                  TEMPORAL_TLS_FRONTEND_CERT: /certs/temporal.pem
              temporal-ui:
                image: temporalio/ui:2.42.1
                ports: ["127.0.0.1:8233:8080"]
                environment:
                  TEMPORAL_UI_SERVER_TLS_CERT: /certs/ui.pem
                  TEMPORAL_UI_SERVER_TLS_KEY: /certs/ui-key.pem
              codec-server:
                ports: ["127.0.0.1:8081:8080"]
                environment: [SERVER_SSL_ENABLED=true, SERVER_SSL_CERTIFICATE=/certs/c.pem]
              prometheus:
                ports: ["127.0.0.1:9090:9090"]
              internal:
                environment: {}
            """);

    assertThat(servedInClear(services))
        .containsExactlyInAnyOrder(
            "temporal publishes 127.0.0.1:7233:7233 in clear",
            "temporal-ui publishes 127.0.0.1:8233:8080 in clear",
            "prometheus publishes 127.0.0.1:9090:9090 in clear");
  }

  /** Published ports of {@code services} that are not served over TLS (mutual for the frontend). */
  static List<String> servedInClear(Map<String, Map<String, Object>> services) {
    List<String> problems = new ArrayList<>();
    services.forEach(
        (name, service) -> {
          Map<String, String> env = environment(service);
          boolean frontendMutualTls =
              env.containsKey("TEMPORAL_TLS_FRONTEND_CERT")
                  && "true".equals(env.get("TEMPORAL_TLS_REQUIRE_CLIENT_AUTH"));
          boolean uiHttps =
              env.containsKey("TEMPORAL_UI_SERVER_TLS_CERT")
                  && env.containsKey("TEMPORAL_UI_SERVER_TLS_KEY")
                  && uiServesHttps(String.valueOf(service.get("image")));
          boolean springHttps =
              "true".equals(env.get("SERVER_SSL_ENABLED"))
                  && env.containsKey("SERVER_SSL_CERTIFICATE");
          boolean prometheusHttps =
              list(service.get("command")).stream()
                  .anyMatch(a -> String.valueOf(a).startsWith("--web.config.file="));
          if (!(frontendMutualTls || uiHttps || springHttps || prometheusHttps)) {
            for (Object port : list(service.get("ports"))) {
              problems.add(name + " publishes " + port + " in clear");
            }
          }
        });
    return problems;
  }

  /** The Temporal UI serves https itself (uiServerTLS) from release 2.43.0 on. */
  private static boolean uiServesHttps(String image) {
    Matcher version = Pattern.compile("temporalio/ui:(\\d+)\\.(\\d+)\\..*").matcher(image);
    return version.matches()
        && (Integer.parseInt(version.group(1)) > 2
            || (Integer.parseInt(version.group(1)) == 2
                && Integer.parseInt(version.group(2)) >= 43));
  }

  /**
   * A codec server bound beyond loopback must have its token: the compose file passes it, and the
   * worker refuses to start when it is empty.
   */
  @Test
  void theComposeCodecServerIsBoundBeyondLoopbackOnlyWithItsToken() throws Exception {
    Map<String, Map<String, Object>> services = services(composeFile);
    Map<String, String> codec = environment(services.get("codec-server"));

    assertThat(codec)
        .containsEntry("JIMFLOW_CODEC_SERVER_ENABLED", "true")
        .containsEntry(
            "JIMFLOW_CODEC_SERVER_ACCESS_TOKEN", "${JIMFLOW_CODEC_SERVER_ACCESS_TOKEN:-}");
    services.forEach(
        (name, service) -> {
          if (!name.equals("codec-server")) {
            assertThat(environment(service))
                .as("%s serves no codec server", name)
                .doesNotContainKey("JIMFLOW_CODEC_SERVER_ENABLED");
          }
        });
  }

  /** The services of {@code files} layered in order, maps (environment) merged key by key. */
  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> merged(Path... files) throws Exception {
    Map<String, Map<String, Object>> services = new LinkedHashMap<>();
    for (Path file : files) {
      parse(Files.readString(file))
          .forEach(
              (name, service) -> {
                Map<String, Object> into =
                    services.computeIfAbsent(name, n -> new LinkedHashMap<>());
                service.forEach(
                    (key, value) -> {
                      if (value instanceof Map<?, ?> overlay
                          && into.get(key) instanceof Map<?, ?> base) {
                        Map<Object, Object> both = new LinkedHashMap<>((Map<Object, Object>) base);
                        both.putAll((Map<Object, Object>) overlay);
                        into.put(key, both);
                      } else {
                        into.put(key, value);
                      }
                    });
              });
    }
    return services;
  }

  @Test
  void theTlsOverlayIsValidOnTopOfTheComposeFile() throws Exception {
    assertComposeConfigIsValid(composeFile, home.resolve("docker-compose.tls.yml"));
  }

  /** {@code docker compose config -q} over {@code files}, layered in order, finds nothing wrong. */
  private void assertComposeConfigIsValid(Path... files) throws Exception {
    List<String> command = new ArrayList<>(composeTool());
    for (Path file : files) {
      command.addAll(List.of("-f", file.toString()));
    }
    command.addAll(List.of("config", "-q"));
    Process p =
        new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s says:%n%s", String.join(" ", command), out).isZero();
  }

  @Test
  void theStackHoldsNoPasswordOrKeyAndEncryptsPayloadsWhichTheUiDecodes() throws Exception {
    String compose = Files.readString(composeFile);

    assertThat(compose)
        .doesNotContainPattern("(?i)(PASSWORD|PWD|TOKEN|KEYS?):[ \\t]*[\"']?[A-Za-z0-9]")
        .contains("POSTGRES_PASSWORD_FILE: /run/secrets/postgres-password")
        .contains("JIMFLOW_STORE_PASSWORD_FILE: /run/secrets/store-password")
        .contains("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE: /run/secrets/payload-keys")
        .contains("TEMPORAL_CODEC_ENDPOINT:");
    assertThat(home.resolve(".env.example")).exists();
  }

  @Test
  void theWorkersExportTheDirectoryToTheStacksDirectoryServiceWithThePasswordAsASecret()
      throws Exception {
    String compose = Files.readString(composeFile);
    String secrets = Files.readString(home.resolve("scripts/make-compose-secrets.sh"));

    assertThat(compose)
        .containsPattern(
            "(?s)\n  directory:\n.*?entrypoint: \\[\"java\", \"-jar\","
                + " \"/app/jimflow-worker.jar\", \"--directory-server\"\\]")
        .contains("JIMFLOW_DIRECTORY_LISTEN: 0.0.0.0:10389")
        .contains("JIMFLOW_DIRECTORY_URL: ${JIMFLOW_DIRECTORY_URL:-ldap://directory:10389}")
        .contains("JIMFLOW_SECRETS_DIR: /run/secrets")
        .contains("  directory-password:\n    file: ./secrets/directory-password")
        .containsPattern(
            "(?s)\n  worker: &worker\n.*?      - source: directory-password\n"
                + "        target: /run/step-secrets/directory-password\n");
    assertThat(secrets).contains("\"$dir/directory-password\"");
  }

  @Test
  void theWorkerImageChecksTheAgeOfTheHeartbeatFile() throws Exception {
    String compose = Files.readString(composeFile);
    String dockerfile = Files.readString(home.resolve("worker-app/Dockerfile"));

    assertThat(compose).contains("postgresql:", "temporal:", "temporal-ui:", "worker:");
    assertThat(dockerfile).contains("HEALTHCHECK").contains("/tmp/healthcheck").contains("-lt 60");
    assertThat(compose).contains("stat -c %Y /tmp/healthcheck");
  }

  @Test
  void theTemporalServerRunsWithTheDevServersLowLatencySettings() throws Exception {
    String compose = Files.readString(composeFile);
    String dynamicConfig = Files.readString(home.resolve("docker/temporal/dynamicconfig.yaml"));

    assertThat(compose)
        .contains("DYNAMIC_CONFIG_FILE_PATH: config/dynamicconfig/jimflow.yaml")
        .contains(
            "./docker/temporal/dynamicconfig.yaml:/etc/temporal/config/dynamicconfig/jimflow.yaml");
    assertThat(dynamicConfig)
        .contains("system.enableActivityEagerExecution:\n  - value: true\n")
        .contains(
            "history.transferProcessorMaxPollRPS:\n  - value: "
                + DevServer.TRANSFER_POLL_RPS
                + "\n");
  }

  @Test
  void theComposeStackRunsTheServerTheTopologyTestsStart() throws Exception {
    String compose = Files.readString(composeFile);
    String script = Files.readString(home.resolve("scripts/start-temporal-server.sh"));
    Matcher pinned = Pattern.compile("TEMPORAL_SERVER_VERSION=\"([^\"]+)\"").matcher(script);
    assertThat(pinned.find()).as("the script pins a server version").isTrue();

    assertThat(compose)
        .contains("image: temporalio/auto-setup:" + pinned.group(1) + "\n")
        .contains("DEFAULT_NAMESPACE_RETENTION: 720h\n")
        .contains("NUM_HISTORY_SHARDS: 4\n")
        .contains("java -jar /app/jimflow-cli.jar setup")
        .containsPattern(
            "(?s)\n  worker: &worker\n.*?depends_on:\n\s+temporal-setup:\n"
                + "\s+condition: service_completed_successfully");
    assertThat(script)
        .contains("retention=\"720h\"")
        .contains("history_shards=\"4\"")
        .contains("filepath: \"$root/docker/temporal/dynamicconfig.yaml\"")
        .contains("\"$root/jimflow\" setup --address");
  }

  private static List<String> composeTool() {
    if (onPath("docker-compose")) {
      return List.of("docker-compose");
    }
    String hint =
        "no docker-compose to validate docker-compose.yml: apt-get install docker-compose";
    if ("true".equals(System.getenv("CI"))) {
      fail(hint);
    }
    assumeThat(false).as(hint).isTrue();
    return List.of();
  }

  private static boolean onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isBlank() && Files.isExecutable(Path.of(dir, name))) {
        return true;
      }
    }
    return false;
  }
}
