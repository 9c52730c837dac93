package io.jimflow.worker.secrets;

import io.jimflow.secrets.Secrets;
import io.jimflow.secrets.WorkerSecrets;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The worker's {@link Secrets}: files in {@code jimflow.secrets.dir} (e.g. a mounted Kubernetes
 * Secret or {@code /run/secrets} of Docker Compose), else {@code JIMFLOW_SECRET_*} environment
 * variables.
 */
@Configuration
public class SecretsConfiguration {

  @Bean
  Secrets secrets(@Value("${jimflow.secrets.dir:}") String dir) {
    Optional<Path> folder = dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
    return new WorkerSecrets(folder, System.getenv());
  }
}
