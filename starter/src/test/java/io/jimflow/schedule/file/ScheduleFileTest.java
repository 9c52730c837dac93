package io.jimflow.schedule.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.config.tree.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleFileTest {

  private static final String ONE_SCHEDULE =
      """
      schedules:
        - id: count
          steps:
            - {index: 0, name: Count, executable: {path: count.sh}}
      """;

  @TempDir Path dir;

  @Test
  void aFileWithoutAScopeKeyOwnsTheScopeOfItsBaseName() throws Exception {
    Path file = Files.writeString(dir.resolve("hr.yaml"), ONE_SCHEDULE);

    ScheduleFile loaded = ScheduleDefinitions.loadFile(file);

    assertThat(loaded.scope()).isEqualTo("hr");
    assertThat(loaded.definitions()).hasSize(1);
  }

  @Test
  void theScopeKeyNamesTheScope() throws Exception {
    Path file = Files.writeString(dir.resolve("x.yaml"), "scope: finance-nightly\n" + ONE_SCHEDULE);

    assertThat(ScheduleDefinitions.loadFile(file).scope()).isEqualTo("finance-nightly");
  }

  @Test
  void aScopeThatIsNoNameIsReportedWithItsLine() throws Exception {
    Path file = Files.writeString(dir.resolve("x.yaml"), "scope: \"a b\"\n" + ONE_SCHEDULE);

    assertThatThrownBy(() -> ScheduleDefinitions.loadFile(file))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("x.yaml:1: scope: 'a b' is not a scope name");
  }
}
