package io.jimflow.worker.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.google.protobuf.util.JsonFormat;
import io.jimflow.encryption.PayloadEncryption;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

class CodecServerControllerTest {

  private static final String KEYS = "k1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
  private static final String OTHER_KEYS = "k9:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

  private final Payload step =
      DefaultDataConverter.STANDARD_INSTANCE.toPayload("--ou=payroll").orElseThrow();

  @Test
  void whatEncodeReturnsDecodeTurnsBackIntoTheOriginalAlsoUnderANamespacePath() throws Exception {
    MockMvc codec = server(KEYS, null);

    String encoded = call(codec, "/codec/encode", json(step), 200);
    assertThat(encoded).contains("payloads").doesNotContain("payroll");
    String decoded = call(codec, "/codec/payroll-ns/decode", encoded, 200);

    assertThat(payloads(decoded)).containsExactly(step);
  }

  @Test
  void aPayloadOfAKeyTheWorkerLacksIsRefusedNamingTheKey() throws Exception {
    String encoded = call(server(OTHER_KEYS, null), "/codec/encode", json(step), 200);

    assertThat(call(server(KEYS, null), "/codec/decode", encoded, 422))
        .contains("encrypted with key 'k9'");
  }

  @Test
  void withAnAccessTokenOnlyRequestsCarryingItAreServed() throws Exception {
    MockMvc codec = server(KEYS, "s3cret-token");

    codec
        .perform(post("/codec/decode").contentType(MediaType.APPLICATION_JSON).content(json(step)))
        .andExpect(status().isUnauthorized());
    codec
        .perform(
            post("/codec/decode")
                .header("Authorization", "Bearer wrong")
                .contentType(MediaType.APPLICATION_JSON)
                .content(json(step)))
        .andExpect(status().isUnauthorized());
    codec
        .perform(
            post("/codec/decode")
                .header("Authorization", "Bearer s3cret-token")
                .contentType(MediaType.APPLICATION_JSON)
                .content(json(step)))
        .andExpect(status().isOk());
  }

  @Test
  void aRequestAddressedToAnotherHostOrFromAnotherOriginIsRefused() throws Exception {
    MockMvc codec = server(KEYS, null);
    String encoded = call(codec, "/codec/encode", json(step), 200);

    for (String host : List.of("attacker.example", "attacker.example:8080", "10.0.0.5:8081")) {
      assertThat(
              codec
                  .perform(
                      post("/codec/decode")
                          .header("Host", host)
                          .contentType(MediaType.APPLICATION_JSON)
                          .content(encoded))
                  .andExpect(status().isForbidden())
                  .andReturn()
                  .getResponse()
                  .getContentAsString())
          .as(host)
          .contains("Host not allowed")
          .doesNotContain("payroll");
    }
    codec
        .perform(
            post("/codec/decode")
                .header("Origin", "http://attacker.example")
                .contentType(MediaType.APPLICATION_JSON)
                .content(encoded))
        .andExpect(status().isForbidden());
    codec
        .perform(
            post("/codec/decode")
                .header("Host", "127.0.0.1:8080")
                .header("Origin", "http://localhost:8233")
                .contentType(MediaType.APPLICATION_JSON)
                .content(encoded))
        .andExpect(status().isOk());
  }

  @Test
  void aRequestArrivingBeyondLoopbackIsRefusedUnlessBoundThereAndThenOnlyWithTheToken()
      throws Exception {
    MockMvc loopbackOnly = server(KEYS, null);
    String encoded = call(loopbackOnly, "/codec/encode", json(step), 200);

    assertThat(
            onAddress(loopbackOnly, "10.1.2.3", encoded, null)
                .andExpect(status().isForbidden())
                .andReturn()
                .getResponse()
                .getContentAsString())
        .contains("answers on loopback only")
        .doesNotContain("payroll");

    MockMvc everywhere =
        MockMvcBuilders.standaloneSetup(
                new CodecServerController(
                    PayloadEncryption.of(null, KEYS),
                    new CodecServerSettings(true, null, "s3cret-token", null, "0.0.0.0")))
            .build();
    onAddress(everywhere, "10.1.2.3", encoded, null).andExpect(status().isUnauthorized());
    onAddress(everywhere, "10.1.2.3", encoded, "Bearer s3cret-token").andExpect(status().isOk());
  }

  private static org.springframework.test.web.servlet.ResultActions onAddress(
      MockMvc codec, String localAddress, String body, String authorization) throws Exception {
    var request =
        post("/codec/decode")
            .with(
                r -> {
                  r.setLocalAddr(localAddress);
                  return r;
                })
            .contentType(MediaType.APPLICATION_JSON)
            .content(body);
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return codec.perform(request);
  }

  @Test
  void aBodyThatIsNotAPayloadListSaysWhatIsExpected() throws Exception {
    assertThat(call(server(KEYS, null), "/codec/decode", "[1, 2]", 400))
        .contains("expected {\\\"payloads\\\"");
  }

  @Test
  void withoutKeysPayloadsComeBackUnchanged() throws Exception {
    String encoded = call(server(null, null), "/codec/encode", json(step), 200);

    assertThat(payloads(encoded)).containsExactly(step);
  }

  private static MockMvc server(String keys, String token) {
    return MockMvcBuilders.standaloneSetup(
            new CodecServerController(
                PayloadEncryption.of(null, keys),
                new CodecServerSettings(true, null, token, null, null)))
        .build();
  }

  private static String call(MockMvc codec, String path, String body, int expected)
      throws Exception {
    return codec
        .perform(post(path).contentType(MediaType.APPLICATION_JSON).content(body))
        .andExpect(status().is(expected))
        .andReturn()
        .getResponse()
        .getContentAsString();
  }

  private static String json(Payload payload) throws Exception {
    return JsonFormat.printer().print(Payloads.newBuilder().addPayloads(payload));
  }

  private static List<Payload> payloads(String json) throws Exception {
    Payloads.Builder builder = Payloads.newBuilder();
    JsonFormat.parser().merge(json, builder);
    return builder.getPayloadsList();
  }
}
