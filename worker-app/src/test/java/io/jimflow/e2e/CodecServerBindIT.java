package io.jimflow.e2e;

import static java.net.http.HttpResponse.BodyHandlers.ofString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.google.protobuf.util.JsonFormat;
import io.jimflow.encryption.PayloadEncryption;
import io.temporal.api.common.v1.Payloads;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.payload.codec.ChainCodec;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real worker's codec server is no oracle for the network: it answers on loopback only unless a
 * bind address is set, beyond loopback only with the access token, and a worker that would decrypt
 * beyond loopback without one does not start.
 */
@ExtendWith(TemporalDevServerExtension.class)
class CodecServerBindIT {

  private static final String KEYS =
      "bind-it:" + Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
  private static final String SECRET_ARGUMENT = "--ou=payroll-" + System.nanoTime();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aWorkerWithPayloadKeysServesNoCodecServerUnlessItIsTurnedOn(E2eEnvironment env)
      throws Exception {
    WorkerProcess worker =
        env.startWorker("codec-off", Map.of("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS", KEYS));

    HttpResponse<String> onLoopback = decode("127.0.0.1", worker.httpPort(), null);

    assertThat(onLoopback.statusCode()).as(onLoopback.body()).isEqualTo(404);
    assertThat(onLoopback.body()).doesNotContain(SECRET_ARGUMENT);
  }

  @Test
  void withoutABindAddressARequestFromTheNetworkIsRefusedAndOneOnLoopbackDecodes(E2eEnvironment env)
      throws Exception {
    String address = networkAddress();
    WorkerProcess worker =
        env.startWorker(
            "codec-loopback",
            Map.of(
                "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS",
                KEYS,
                "JIMFLOW_CODEC_SERVER_ENABLED",
                "true",
                // Even a Host it would accept: the request arrived beyond loopback.
                "JIMFLOW_CODEC_SERVER_ALLOWED_HOSTS",
                address + ",localhost,127.0.0.1"));

    HttpResponse<String> fromTheNetwork = decode(address, worker.httpPort(), null);
    HttpResponse<String> onLoopback = decode("127.0.0.1", worker.httpPort(), null);

    assertThat(fromTheNetwork.statusCode()).as(fromTheNetwork.body()).isEqualTo(403);
    assertThat(fromTheNetwork.body())
        .contains("answers on loopback only")
        .doesNotContain(SECRET_ARGUMENT);
    assertThat(onLoopback.statusCode()).as(onLoopback.body()).isEqualTo(200);
    assertThat(onLoopback.body())
        .contains(Base64.getEncoder().encodeToString(("\"" + SECRET_ARGUMENT + "\"").getBytes()));
    assertThat(worker.logTail(60))
        .contains("Codec server: decode refused for " + address)
        .contains("the codec server is bound to loopback");
  }

  @Test
  void boundBeyondLoopbackItDecodesOnlyForTheToken(E2eEnvironment env) throws Exception {
    String address = networkAddress();
    String token = "codec-token-" + System.nanoTime();
    WorkerProcess worker =
        env.startWorker(
            "codec-bound",
            Map.of(
                "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS",
                KEYS,
                "JIMFLOW_CODEC_SERVER_ENABLED",
                "true",
                "JIMFLOW_CODEC_SERVER_BIND_ADDRESS",
                "0.0.0.0",
                "JIMFLOW_CODEC_SERVER_ACCESS_TOKEN",
                token,
                "JIMFLOW_CODEC_SERVER_ALLOWED_HOSTS",
                address));

    HttpResponse<String> withoutToken = decode(address, worker.httpPort(), null);
    HttpResponse<String> withToken = decode(address, worker.httpPort(), "Bearer " + token);

    assertThat(withoutToken.statusCode()).as(withoutToken.body()).isEqualTo(401);
    assertThat(withoutToken.body()).doesNotContain(SECRET_ARGUMENT);
    assertThat(withToken.statusCode()).as(withToken.body()).isEqualTo(200);
  }

  @Test
  void aWorkerWhoseCodecServerWouldDecryptBeyondLoopbackWithoutATokenRefusesToStart(
      E2eEnvironment env) {
    WorkerProcess worker =
        env.launchWorker(
            "codec-exposed",
            Map.of(
                "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS",
                KEYS,
                "JIMFLOW_CODEC_SERVER_ENABLED",
                "true",
                "JIMFLOW_CODEC_SERVER_BIND_ADDRESS",
                "0.0.0.0"));

    int exit = worker.awaitExit(Duration.ofSeconds(150));

    assertThat(exit).as(worker.logTail(40)).isNotIn(0, -1);
    assertThat(worker.logTail(40))
        .contains(
            "The worker refuses to start: the codec server would decrypt for anyone who reaches"
                + " 0.0.0.0 (jimflow.codec-server.bind-address) without an access token")
        .doesNotContain("\tat io.jimflow");
  }

  /** A POST of one encrypted payload to the codec server at {@code host}. */
  private static HttpResponse<String> decode(String host, int port, String authorization)
      throws Exception {
    ChainCodec codec = new ChainCodec(PayloadEncryption.of(null, KEYS).codecs());
    String body =
        JsonFormat.printer()
            .print(
                Payloads.newBuilder()
                    .addAllPayloads(
                        codec.encode(
                            List.of(
                                DefaultDataConverter.STANDARD_INSTANCE
                                    .toPayload(SECRET_ARGUMENT)
                                    .orElseThrow()))));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/codec/decode"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), ofString());
  }

  /** An IPv4 address of this machine that is not a loopback one, as another host reaches it. */
  private static String networkAddress() throws Exception {
    Optional<String> found =
        Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
            .filter(
                i -> {
                  try {
                    return i.isUp() && !i.isLoopback();
                  } catch (java.net.SocketException e) {
                    return false;
                  }
                })
            .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
            .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
            .map(InetAddress::getHostAddress)
            .findFirst();
    assumeThat(found).as("this machine has no network address besides loopback").isPresent();
    return found.orElseThrow();
  }
}
