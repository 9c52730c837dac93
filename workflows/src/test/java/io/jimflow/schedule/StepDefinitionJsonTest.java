package io.jimflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import io.jimflow.schedule.StepDefinition.SqlScriptStep;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepDefinitionJsonTest {

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void anExecutableStepWithoutLimitsIsWrittenAsBeforeLimitsExisted() throws Exception {
    String written = json.writeValueAsString(new ExecutableStep("a.sh", List.of("1"), null, null));

    assertThat(written)
        .isEqualTo("{\"path\":\"a.sh\",\"args\":[\"1\"],\"workingDirectory\":null,\"env\":{}}");
    assertThat(json.readValue(written, ExecutableStep.class).limits()).isNull();
  }

  @Test
  void limitsSurviveTheRoundTrip() throws Exception {
    ExecutableStep step = new ExecutableStep("a.sh", null, null, null, new Limits(5L, null, 64));

    assertThat(json.readValue(json.writeValueAsString(step), ExecutableStep.class)).isEqualTo(step);
  }

  @Test
  void aStepWithoutASqlScriptIsWrittenAsBeforeSqlScriptsExistedAndOneWithItRoundTrips()
      throws Exception {
    ObjectMapper json = new ObjectMapper().findAndRegisterModules();
    StepDefinition executable =
        new StepDefinition(
            0,
            "a",
            null,
            new ExecutableStep("a.sh", null, null, null),
            null,
            null,
            null,
            null,
            null,
            null);
    StepDefinition sql =
        new StepDefinition(
            0,
            "b",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            new SqlScriptStep("reports", "x.sql"));

    assertThat(json.writeValueAsString(executable)).doesNotContain("sqlScript");
    assertThat(json.readValue(json.writeValueAsString(sql), StepDefinition.class)).isEqualTo(sql);
  }
}
