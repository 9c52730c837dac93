package io.jimflow.worker.secrets;

import io.jimflow.secrets.activities.Secrets;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.jimflow.worker.dev.EmbeddedDirectory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The worker's {@link Secrets}: files in {@code jimflow.secrets.dir} (e.g. a mounted Kubernetes
 * Secret or {@code /run/secrets} of Docker Compose), else {@code JIMFLOW_SECRET_*} environment
 * variables. In dev mode ({@code ./jimflow dev}) the Directory's {@code
 * ${secret:directory-password}} falls back to the embedded directory's development password.
 */
@Configuration
public class SecretsConfiguration {

  @Bean
  Secrets secrets(
      @Value("${jimflow.secrets.dir:}") String dir,
      @Value("${jimflow.dev-mode:false}") boolean devMode) {
    Optional<Path> folder = dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
    Map<String, String> environment = System.getenv();
    if (devMode) {
      environment = EmbeddedDirectory.withDevelopmentPassword(environment);
    }
    return new WorkerSecrets(folder, environment);
  }
}
