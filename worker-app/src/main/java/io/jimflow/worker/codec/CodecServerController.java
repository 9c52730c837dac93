package io.jimflow.worker.codec;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.jimflow.encryption.PayloadEncryption;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.payload.codec.ChainCodec;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Temporal's codec server protocol, so the Temporal UI and CLI show what the workers encrypted:
 * {@code POST /codec/encode} and {@code POST /codec/decode} (also {@code /codec/{namespace}/…}, for
 * the CLI's {@code --codec-endpoint …/{namespace}}) take and answer {@code {"payloads": [...]}} in
 * protobuf JSON (metadata values and data in base64).
 *
 * <p>Whoever reaches it can decrypt: it is off unless {@code jimflow.codec-server.enabled}, answers
 * only on loopback unless {@code jimflow.codec-server.bind-address} names another address, and the
 * worker does not start when that address reaches beyond loopback without an access token (see
 * docs/security.md).
 */
@RestController
@RequestMapping(CodecServerController.PATH)
@ConditionalOnProperty(
    name = "jimflow.codec-server.enabled",
    havingValue = "true",
    matchIfMissing = false)
public class CodecServerController {

  /** Where the codec server answers; the UI's codec endpoint is the worker's URL plus this. */
  public static final String PATH = "/codec";

  private static final Logger log = LoggerFactory.getLogger(CodecServerController.class);

  private final PayloadCodec codec;
  private final byte[] expectedAuthorization;
  private final List<String> allowedHosts;
  private final List<String> allowedOrigins;
  private final CodecServerReach reach;

  public CodecServerController(PayloadEncryption encryption, CodecServerSettings settings) {
    CodecServerReach.problem(settings)
        .ifPresent(
            problem -> {
              throw new CodecServerExposedException(problem);
            });
    this.reach = new CodecServerReach(settings.bindAddress());
    List<PayloadCodec> codecs = encryption.codecs();
    this.codec = codecs.isEmpty() ? null : new ChainCodec(codecs);
    this.expectedAuthorization =
        settings.accessToken() == null
            ? null
            : ("Bearer " + settings.accessToken()).getBytes(StandardCharsets.UTF_8);
    this.allowedHosts = settings.allowedHosts();
    this.allowedOrigins = settings.allowedOrigins();
  }

  @PostMapping(path = {"/encode", "/{namespace}/encode"})
  public ResponseEntity<String> encode(
      @PathVariable(required = false) String namespace,
      @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
      @RequestBody(required = false) String body,
      HttpServletRequest request) {
    return convert("encode", request, authorization, body, codec == null ? p -> p : codec::encode);
  }

  @PostMapping(path = {"/decode", "/{namespace}/decode"})
  public ResponseEntity<String> decode(
      @PathVariable(required = false) String namespace,
      @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
      @RequestBody(required = false) String body,
      HttpServletRequest request) {
    return convert("decode", request, authorization, body, codec == null ? p -> p : codec::decode);
  }

  private ResponseEntity<String> convert(
      String operation,
      HttpServletRequest http,
      String authorization,
      String body,
      UnaryOperator<List<Payload>> conversion) {
    String caller =
        http.getRemoteAddr()
            + " (Host "
            + http.getHeader(HttpHeaders.HOST)
            + ", Origin "
            + http.getHeader(HttpHeaders.ORIGIN)
            + ")";
    if (!reach.answers(http.getLocalAddr())) {
      log.warn(
          "Codec server: {} refused for {}: arrived on {}, the codec server is bound to {}",
          operation,
          caller,
          http.getLocalAddr(),
          reach);
      return error(
          HttpStatus.FORBIDDEN,
          "the codec server answers on loopback only (jimflow.codec-server.bind-address)");
    }
    String host = http.getHeader(HttpHeaders.HOST);
    if (!allowedHosts.contains(hostName(host != null ? host : http.getServerName()))) {
      log.warn("Codec server: {} refused for {}: Host not allowed", operation, caller);
      return error(HttpStatus.FORBIDDEN, "Host not allowed (jimflow.codec-server.allowed-hosts)");
    }
    String origin = http.getHeader(HttpHeaders.ORIGIN);
    if (origin != null && !allowedOrigins.contains(origin)) {
      log.warn("Codec server: {} refused for {}: Origin not allowed", operation, caller);
      return error(
          HttpStatus.FORBIDDEN, "Origin not allowed (jimflow.codec-server.allowed-origins)");
    }
    if (!authorized(authorization)) {
      log.warn("Codec server: {} refused for {}: no valid access token", operation, caller);
      return error(HttpStatus.UNAUTHORIZED, "an Authorization: Bearer <access token> is required");
    }
    Payloads.Builder request = Payloads.newBuilder();
    try {
      JsonFormat.parser().ignoringUnknownFields().merge(body == null ? "" : body, request);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      return error(
          HttpStatus.BAD_REQUEST,
          "expected {\"payloads\": [{\"metadata\": {...}, \"data\": \"<base64>\"}]}: "
              + e.getMessage());
    }
    try {
      Payloads answer =
          Payloads.newBuilder().addAllPayloads(conversion.apply(request.getPayloadsList())).build();
      log.info(
          "Codec server: {} of {} payloads for {}", operation, request.getPayloadsCount(), caller);
      return ResponseEntity.ok()
          .contentType(MediaType.APPLICATION_JSON)
          .body(JsonFormat.printer().omittingInsignificantWhitespace().print(answer));
    } catch (PayloadCodecException | InvalidProtocolBufferException e) {
      log.warn("Codec server: {}", e.getMessage());
      return error(HttpStatus.UNPROCESSABLE_ENTITY, e.getMessage());
    }
  }

  /** The host name of a Host header, lower case, without its port ({@code [::1]} kept whole). */
  static String hostName(String host) {
    if (host == null) {
      return "";
    }
    String h = host.strip().toLowerCase(java.util.Locale.ROOT);
    int colon = h.lastIndexOf(':');
    if (colon > h.lastIndexOf(']')) {
      h = h.substring(0, colon);
    }
    return h;
  }

  private boolean authorized(String authorization) {
    return expectedAuthorization == null
        || (authorization != null
            && MessageDigest.isEqual(
                expectedAuthorization, authorization.strip().getBytes(StandardCharsets.UTF_8)));
  }

  private static ResponseEntity<String> error(HttpStatus status, String message) {
    String json = "{\"message\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(json);
  }
}
