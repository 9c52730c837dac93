package io.jimflow.common;

import com.google.protobuf.ByteString;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DataConverterException;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.EncodingKeys;
import io.temporal.payload.codec.ChainCodec;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import io.temporal.payload.context.SerializationContext;
import io.temporal.worker.WorkflowImplementationOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.unsafe.WorkflowUnsafe;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Temporal's default data converter, with one difference: method arguments (a workflow's input, a
 * signal's or update's arguments) that cannot be read fail with an {@link
 * UnreadablePayloadException} that names the workflow type, the type expected and what came
 * instead. Payloads are written and read exactly as by the default converter, so histories of valid
 * executions replay unchanged.
 *
 * <p>Workers register jimflow's workflows with {@link #WORKFLOW_OPTIONS}, which turn an unreadable
 * start input into a failed execution within seconds.
 */
public final class JimflowDataConverter implements DataConverter {

  /** Registration options of every jimflow workflow implementation. */
  public static final WorkflowImplementationOptions WORKFLOW_OPTIONS =
      WorkflowImplementationOptions.newBuilder()
          .setFailWorkflowExceptionTypes(UnreadablePayloadException.class)
          .build();

  private static final int PREVIEW_CHARS = 80;

  private final DataConverter delegate;
  private final PayloadCodec codec;
  private final Predicate<Payload> argumentsMust;

  private JimflowDataConverter(
      DataConverter delegate, PayloadCodec codec, Predicate<Payload> argumentsMust) {
    this.delegate = delegate;
    this.codec = codec;
    this.argumentsMust = argumentsMust;
  }

  public static JimflowDataConverter create() {
    return create(List.of());
  }

  /**
   * With codecs (e.g. encryption) applied to every payload written and read, and to failures: their
   * message and stack trace travel in an encoded attributes payload, so they are encoded too.
   */
  public static JimflowDataConverter create(List<PayloadCodec> codecs) {
    return create(codecs, true);
  }

  /**
   * With codecs applied to every payload written and read; failures' message and stack trace
   * encoded too only when {@code encodeFailures}.
   */
  public static JimflowDataConverter create(List<PayloadCodec> codecs, boolean encodeFailures) {
    return create(codecs, encodeFailures, null);
  }

  /**
   * Like {@link #create(List, boolean)}, refusing as unreadable every method argument (a workflow's
   * input, a signal's or update's argument) whose stored payload fails {@code argumentsMust}: a
   * worker with payload keys reads only encrypted ones.
   */
  public static JimflowDataConverter create(
      List<PayloadCodec> codecs, boolean encodeFailures, Predicate<Payload> argumentsMust) {
    if (codecs.isEmpty()) {
      return new JimflowDataConverter(DefaultDataConverter.newDefaultInstance(), null, null);
    }
    ChainCodec chain = new ChainCodec(codecs);
    return new JimflowDataConverter(
        new CodecDataConverter(DefaultDataConverter.newDefaultInstance(), codecs, encodeFailures),
        chain,
        argumentsMust);
  }

  @Override
  public Object[] fromPayloads(
      Optional<Payloads> content, Class<?>[] parameterTypes, Type[] genericParameterTypes) {
    if (argumentsMust != null
        && content.isPresent()
        && !content.get().getPayloadsList().stream().allMatch(argumentsMust)) {
      throw new UnreadablePayloadException(
          workflowType()
              + "refused "
              + (parameterTypes.length > 1 ? "an argument" : "its input")
              + ": it is not encrypted, and this worker has payload keys, so it reads only"
              + " encrypted inputs, signals and updates (a client without the keys sent it)",
          null);
    }
    try {
      return delegate.fromPayloads(content, parameterTypes, genericParameterTypes);
    } catch (UnreadablePayloadException e) {
      throw e;
    } catch (DataConverterException | PayloadCodecException e) {
      // A payload under a key this worker lacks, or altered, is unreadable like a malformed one:
      // the signal alone is dropped, the update rejected, a start fails its execution - never a
      // workflow task retried for ever.
      throw unreadable(content, parameterTypes, genericParameterTypes, e);
    }
  }

  private UnreadablePayloadException unreadable(
      Optional<Payloads> content,
      Class<?>[] parameterTypes,
      Type[] genericParameterTypes,
      RuntimeException failure) {
    int index = 0;
    for (int i = 0; i < parameterTypes.length; i++) {
      try {
        delegate.fromPayloads(i, content, parameterTypes[i], genericParameterTypes[i]);
      } catch (DataConverterException | PayloadCodecException e) {
        index = i;
        break;
      }
    }
    Payload payload =
        content.filter(p -> p.getPayloadsCount() > 0).map(p -> p.getPayloads(0)).orElse(null);
    if (content.isPresent() && index < content.get().getPayloadsCount()) {
      payload = content.get().getPayloads(index);
    }
    String expected =
        parameterTypes.length == 0
            ? "no argument"
            : describe(parameterTypes[Math.min(index, parameterTypes.length - 1)]);
    String message =
        workflowType()
            + "could not read "
            + (parameterTypes.length > 1 ? "argument " + (index + 1) : "its input")
            + ": expected "
            + expected
            + ", got "
            + preview(payload)
            + " ("
            + reason(failure)
            + ")";
    return new UnreadablePayloadException(message, failure);
  }

  private static String workflowType() {
    return WorkflowUnsafe.isWorkflowThread()
        ? "Workflow " + Workflow.getInfo().getWorkflowType() + " "
        : "";
  }

  private static String describe(Class<?> type) {
    if (type.isRecord()) {
      return "a JSON object for " + type.getSimpleName();
    }
    if (type.isEnum()) {
      return "one of the " + type.getSimpleName() + " names";
    }
    if (type == String.class) {
      return "a JSON string";
    }
    return "a " + type.getSimpleName();
  }

  private String preview(Payload payload) {
    if (payload == null) {
      return "nothing";
    }
    if (codec != null) {
      try {
        payload = codec.decode(List.of(payload)).get(0);
      } catch (RuntimeException undecodable) {
        // The preview shows the payload as stored.
      }
    }
    ByteString encoding = payload.getMetadataMap().get(EncodingKeys.METADATA_ENCODING_KEY);
    String encodingName = encoding == null ? "no" : encoding.toStringUtf8();
    if (!encodingName.startsWith("json/")) {
      return "a payload of encoding " + encodingName + " (" + payload.getData().size() + " bytes)";
    }
    String text = payload.getData().toStringUtf8().strip();
    if (text.length() > PREVIEW_CHARS) {
      text = text.substring(0, PREVIEW_CHARS) + "…";
    }
    return text.isEmpty() ? "an empty payload" : text;
  }

  /** The first line of the innermost cause, without the parser's source location. */
  private static String reason(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(root.getMessage());
    int cut = message.indexOf('\n');
    message = cut < 0 ? message : message.substring(0, cut);
    int source = message.indexOf(" at [Source");
    return (source < 0 ? message : message.substring(0, source)).strip();
  }

  @Override
  public <T> Optional<Payload> toPayload(T value) {
    return delegate.toPayload(value);
  }

  @Override
  public <T> T fromPayload(Payload payload, Class<T> valueType, Type valueGenericType) {
    return delegate.fromPayload(payload, valueType, valueGenericType);
  }

  @Override
  public Optional<Payloads> toPayloads(Object... values) {
    return delegate.toPayloads(values);
  }

  @Override
  public <T> T fromPayloads(
      int index, Optional<Payloads> content, Class<T> valueType, Type valueGenericType) {
    return delegate.fromPayloads(index, content, valueType, valueGenericType);
  }

  @Override
  public RuntimeException failureToException(io.temporal.api.failure.v1.Failure failure) {
    return delegate.failureToException(failure);
  }

  @Override
  public io.temporal.api.failure.v1.Failure exceptionToFailure(Throwable throwable) {
    return delegate.exceptionToFailure(throwable);
  }

  @Override
  public DataConverter withContext(SerializationContext context) {
    return new JimflowDataConverter(
        delegate.withContext(context),
        codec == null ? null : codec.withContext(context),
        argumentsMust);
  }
}
