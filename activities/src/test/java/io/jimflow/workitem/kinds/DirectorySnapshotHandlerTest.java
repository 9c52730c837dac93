package io.jimflow.workitem.kinds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.files.FileRoots;
import io.jimflow.workitem.activities.WorkItemRunOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectorySnapshotHandlerTest {

  private final ObjectMapper json = new ObjectMapper();
  private final Instant now = Instant.parse("2026-03-01T10:00:00Z");
  @TempDir Path dir;
  private DirectorySnapshotHandler handler;

  @BeforeEach
  void handlerWithTheTestDirectoryAsItsOnlyRoot() throws Exception {
    Files.createDirectory(dir.resolve("watched"));
    handler =
        new DirectorySnapshotHandler(
            json, Clock.fixed(now, ZoneOffset.UTC), FileRoots.workItemRoots(List.of(dir)));
  }

  @Test
  void takesASnapshotAndPlansItsSuccessorOneIntervalLater() throws Exception {
    Path dir = this.dir.resolve("watched");
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
  void stopsPlanningSuccessorsAfterItsLastRun() throws Exception {
    Path dir = this.dir.resolve("watched");
    WorkItemRunOutcome out =
        handler.run(
            new FakeRunContext(
                "{\"dir\":\"" + dir + "\",\"intervalSeconds\":60,\"stopAfterRuns\":3,\"runs\":2}",
                Integer.MAX_VALUE));

    assertThat(out.done()).isTrue();
    assertThat(out.successorStartTime()).isNull();
  }

  @Test
  void aDirectoryOutsideTheRootsOrAZeroIntervalIsRefused() throws Exception {
    assertThatThrownBy(
            () ->
                handler.run(
                    new FakeRunContext(
                        "{\"dir\":\"/etc\",\"intervalSeconds\":60}", Integer.MAX_VALUE)))
        .hasMessageContaining("dir '/etc' is outside the work item root of this worker");
    assertThatThrownBy(
            () ->
                handler.run(
                    new FakeRunContext(
                        "{\"dir\":\"" + dir.resolve("watched") + "\",\"intervalSeconds\":0}",
                        Integer.MAX_VALUE)))
        .hasMessageContaining("'intervalSeconds' must be between 1 and 86400, was 0");
  }
}
