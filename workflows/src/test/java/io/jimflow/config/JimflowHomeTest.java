package io.jimflow.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JimflowHomeTest {

  @TempDir Path home;
  private String before;

  @BeforeEach
  void remember() {
    before = System.getProperty(JimflowHome.PROPERTY);
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(JimflowHome.PROPERTY);
    } else {
      System.setProperty(JimflowHome.PROPERTY, before);
    }
  }

  @Test
  void thePropertyNamesTheHomeAndRelativePathsAreResolvedBelowIt() {
    System.setProperty(JimflowHome.PROPERTY, home + "/./");

    assertThat(JimflowHome.explicit()).contains(home);
    assertThat(JimflowHome.dir()).isEqualTo(home);
    assertThat(JimflowHome.resolve(Path.of("config/../data/hr.csv")))
        .isEqualTo(home.resolve("data/hr.csv"));
  }

  @Test
  void absolutePathsStayWhereTheyAre() {
    System.setProperty(JimflowHome.PROPERTY, home.toString());

    assertThat(JimflowHome.resolve(Path.of("/srv/./jimflow/data")))
        .isEqualTo(Path.of("/srv/jimflow/data"));
  }

  @Test
  void aBlankPropertyNamesNoHomeSoTheWorkingDirectoryIsIt() {
    System.setProperty(JimflowHome.PROPERTY, " ");

    assertThat(JimflowHome.explicit()).isEmpty();
    assertThat(JimflowHome.dir()).isEqualTo(Path.of("").toAbsolutePath());
    assertThat(JimflowHome.resolve(Path.of("data"))).isEqualTo(Path.of("data").toAbsolutePath());
  }
}
