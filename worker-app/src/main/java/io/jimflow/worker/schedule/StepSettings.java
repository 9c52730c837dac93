package io.jimflow.worker.schedule;

import io.jimflow.config.JimflowHome;
import io.jimflow.schedule.steps.ProgramAllowList;
import io.jimflow.schedule.steps.SqlScriptsConfig;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of schedule steps ({@code jimflow.steps.*}).
 *
 * @param executables where Executable steps' programs live and what environment they may get
 * @param sqlScripts where SqlScript steps' scripts and connections are configured
 */
@ConfigurationProperties("jimflow.steps")
public record StepSettings(Executables executables, SqlScripts sqlScripts) {

  public StepSettings {
    executables = executables == null ? new Executables(null, null, null, null, null) : executables;
    sqlScripts = sqlScripts == null ? new SqlScripts(null) : sqlScripts;
  }

  /**
   * @param config the {@code sql-scripts.yaml} naming the scripts root and the connections;
   *     relative to the {@link JimflowHome}. Without the file SqlScript steps fail as
   *     misconfigured.
   */
  public record SqlScripts(Path config) {
    public SqlScripts {
      config = config == null ? Path.of(SqlScriptsConfig.DEFAULT_FILE) : config;
    }
  }

  /**
   * @param root programs must lie below it (also after resolving links); relative to the {@link
   *     JimflowHome}; {@code scripts/steps} by default
   * @param envAllowList variable names a step may set in {@code env} and that pass through from the
   *     worker's environment
   * @param outputLimit how many characters of a program's output its step outcome keeps
   * @param allowed the programs (globs relative to the root) and argument patterns this worker
   *     runs; none by default
   * @param containment {@code auto} (the python3 helper when python3 is on the PATH), {@code
   *     required} (refuse to start without it) or {@code off}
   */
  public record Executables(
      Path root,
      List<String> envAllowList,
      Integer outputLimit,
      List<ProgramAllowList.Rule> allowed,
      ContainmentMode containment) {
    public Executables {
      containment = containment == null ? ContainmentMode.AUTO : containment;
      allowed = allowed == null ? List.of() : List.copyOf(allowed);
      root = root == null ? Path.of("scripts/steps") : root;
      envAllowList = envAllowList == null ? List.of() : List.copyOf(envAllowList);
      outputLimit = outputLimit == null ? 8_000 : outputLimit;
    }
  }

  /** Whether Executable steps run under the containment helper. */
  public enum ContainmentMode {
    AUTO,
    REQUIRED,
    OFF
  }
}
