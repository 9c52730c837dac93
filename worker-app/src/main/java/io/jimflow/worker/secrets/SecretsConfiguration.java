package io.jimflow.worker.secrets;

import io.jimflow.secrets.activities.Secrets;
import io.jimflow.secrets.activities.SystemSecrets;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The worker's {@link Secrets}: files in {@code jimflow.secrets.dir} (e.g. a mounted Kubernetes
 * Secret or {@code /run/secrets} of Docker Compose), else {@code JIMFLOW_SECRET_*} environment
 * variables. In dev mode ({@code ./jimflow dev}) the Directory's {@code
 * ${secret:directory-password}} falls back to the embedded directory's development password. The
 * worker's own secrets ({@link SystemSecrets}) are never a step's to name.
 */
@Configuration
public class SecretsConfiguration {

  @Bean
  Secrets secrets(
      @Value("${jimflow.secrets.dir:}") String dir,
      @Value("${jimflow.dev-mode:false}") boolean devMode,
      Environment settings) {
    Optional<Path> folder = dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
    Map<String, String> environment = System.getenv();
    if (devMode) {
      environment = EmbeddedDirectory.withDevelopmentPassword(environment);
    }
    return new WorkerSecrets(folder, environment, systemSecrets(settings, System.getenv()));
  }

  /**
   * The worker's own secrets, which steps cannot name: the payload keys, the store's password and
   * the access tokens of its HTTP port.
   */
  static SystemSecrets systemSecrets(Environment settings, Map<String, String> environment) {
    return SystemSecrets.builder()
        .file("the payload keys", settings.getProperty("jimflow.payload-encryption.keys-file"))
        .value("the payload keys", settings.getProperty("jimflow.payload-encryption.keys"))
        .file("the store password", environment.get("JIMFLOW_STORE_PASSWORD_FILE"))
        .value("the store password", settings.getProperty("jimflow.store.password"))
        .value(
            "the codec server's token", settings.getProperty("jimflow.codec-server.access-token"))
        .value("the management token", settings.getProperty("jimflow.management.access-token"))
        .build();
  }
}
