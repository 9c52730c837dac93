package io.jimflow.common;

import io.temporal.common.converter.DataConverterException;

/**
 * A workflow's input, or a signal's or update's argument, cannot be read as the type its method
 * declares. As a {@link DataConverterException} the SDK drops such a signal and rejects such an
 * update; jimflow's workflows list it in {@link JimflowDataConverter#WORKFLOW_OPTIONS}, so an
 * unreadable start input fails the execution instead of failing its first workflow task for ever.
 */
public class UnreadablePayloadException extends DataConverterException {

  public UnreadablePayloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
