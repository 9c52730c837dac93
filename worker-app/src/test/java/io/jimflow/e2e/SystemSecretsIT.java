package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowStub;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real worker whose step secrets folder also holds its payload keys (as a careless mount would):
 * a step naming them fails before its program runs, naming the step, and the keys appear nowhere,
 * while a step secret beside them still reaches its program.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SystemSecretsIT {

  @Test
  void aStepNamingThePayloadKeysFailsNamingTheStepAndAStepSecretStillWorks(E2eEnvironment env)
      throws Exception {
    String keys =
        "sys-it:" + Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    String namespace = env.newNamespace("system-secrets");
    Path dir = env.newDirectory("system-secrets");
    Path root = Files.createDirectories(dir.resolve("steps"));
    Path secrets = Files.createDirectories(dir.resolve("secrets"));
    Path keysFile = Files.writeString(secrets.resolve("payload-keys"), keys + "\n");
    Files.writeString(secrets.resolve("api-token"), "step-token-" + UUID.randomUUID());
    Path stolen = dir.resolve("stolen");
    Path script = root.resolve("use.sh");
    Files.writeString(
        script, "#!/bin/sh\necho \"$VALUE\" > '" + stolen + "'\necho \"used $VALUE\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    WorkerProcess worker =
        env.startWorker(
            "system-secrets-worker",
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                "JIMFLOW_SECRETS_DIR",
                secrets.toString(),
                "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE",
                keysFile.toString(),
                "SPRING_APPLICATION_JSON",
                "{\"jimflow\":{\"steps\":{\"executables\":{\"root\":\""
                    + root
                    + "\",\"env-allow-list\":[\"VALUE\"],\"allowed\":[{\"program\":\"use.sh\"}]}}}}"));
    WorkflowClient client =
        WorkflowClient.newInstance(
            env.stubs(),
            WorkflowClientOptions.newBuilder()
                .setNamespace(namespace)
                .setDataConverter(PayloadEncryption.of(null, keys).dataConverter())
                .build());

    ExecutionProgress forbidden = run(client, "Key thief", "${secret:payload-keys}");

    assertThat(forbidden.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(forbidden.steps().get(0).status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(forbidden.steps().get(0).message())
        .contains(
            "step 'Key thief': env secret 'payload-keys' is the payload keys, a secret of the"
                + " worker itself, which no step may name")
        .doesNotContain(keys.substring(7));
    assertThat(stolen).doesNotExist();
    assertThat(Files.readString(worker.log(), StandardCharsets.UTF_8))
        .doesNotContain(keys.substring(7));

    ExecutionProgress allowed = run(client, "Token user", "${secret:api-token}");

    assertThat(allowed.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(allowed.steps().get(0).message()).isEqualTo("used ***");
    assertThat(Files.readString(stolen)).startsWith("step-token-");
  }

  private static ExecutionProgress run(WorkflowClient client, String stepName, String value)
      throws Exception {
    StepDefinition step =
        new StepDefinition(
            0,
            stepName,
            null,
            new ExecutableStep("use.sh", List.of(), null, Map.of("VALUE", value)),
            false,
            null,
            new RetrySettings(3, null, null),
            null,
            null,
            null);
    String id = "system-secrets/" + UUID.randomUUID();
    ManualExecutions.start(
        client,
        id,
        new ScheduleDefinition(
            stepName, stepName, null, true, null, null, null, null, List.of(step)),
        TESTER);
    WorkflowStub stub = client.newUntypedWorkflowStub(id, Optional.empty(), Optional.empty());
    try {
      stub.getResult(120, TimeUnit.SECONDS, Object.class);
    } catch (RuntimeException failed) {
      // A failed execution still answers its progress query.
    }
    return stub.query("progress", ExecutionProgress.class);
  }
}
