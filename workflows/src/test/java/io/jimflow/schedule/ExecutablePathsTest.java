package io.jimflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExecutablePathsTest {

  @Test
  void aRelativePathBelowTheRootIsAccepted() {
    assertThat(ExecutablePaths.problem("count.sh")).isEmpty();
    assertThat(ExecutablePaths.problem("exports/../count.sh")).isEmpty();
  }

  @Test
  void aPathLeavingTheRootOrAbsoluteOrEmptyIsRejected() {
    assertThat(ExecutablePaths.problem("../bin/sh"))
        .hasValueSatisfying(p -> assertThat(p).contains("leaves the executables root"));
    assertThat(ExecutablePaths.problem("a/../../x"))
        .hasValueSatisfying(p -> assertThat(p).contains("leaves"));
    assertThat(ExecutablePaths.problem("/bin/sh"))
        .hasValueSatisfying(p -> assertThat(p).contains("must be relative"));
    assertThat(ExecutablePaths.problem(" ")).hasValue("is empty");
  }
}
