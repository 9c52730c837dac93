package io.jimflow.workitem.kinds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.workitem.WorkItemRunOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectorySnapshotHandlerTest {

  private final ObjectMapper json = new ObjectMapper();
  private final Instant now = Instant.parse("2026-03-01T10:00:00Z");
  private final DirectorySnapshotHandler handler =
      new DirectorySnapshotHandler(json, Clock.fixed(now, ZoneOffset.UTC));

  @Test
  void takesASnapshotAndPlansItsSuccessorOneIntervalLater(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a"), "12345");
    Files.writeString(dir.resolve("b"), "123");
    Files.createDirectory(dir.resolve("sub"));

    WorkItemRunOutcome out =
        handler.run(
            new FakeRunContext(
                "{\"dir\":\"" + dir + "\",\"intervalSeconds\":600}", Integer.MAX_VALUE));

    DirectorySnapshotHandler.State s =
        json.readValue(out.stateJson(), DirectorySnapshotHandler.State.class);
    assertThat(out.successorStartTime()).isEqualTo(now.plusSeconds(600));
    assertThat(s.runs()).isEqualTo(1);
    assertThat(s.files()).isEqualTo(2);
    assertThat(s.bytes()).isEqualTo(8);
  }

  @Test
  void stopsPlanningSuccessorsAfterItsLastRun(@TempDir Path dir) throws Exception {
    WorkItemRunOutcome out =
        handler.run(
            new FakeRunContext(
                "{\"dir\":\"" + dir + "\",\"intervalSeconds\":60,\"stopAfterRuns\":3,\"runs\":2}",
                Integer.MAX_VALUE));

    assertThat(out.done()).isTrue();
    assertThat(out.successorStartTime()).isNull();
  }
}
