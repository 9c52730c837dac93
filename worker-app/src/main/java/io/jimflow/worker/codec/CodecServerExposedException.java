package io.jimflow.worker.codec;

/** The codec server's settings would let it decrypt for anyone: the worker does not start. */
public class CodecServerExposedException extends RuntimeException {

  public CodecServerExposedException(String message) {
    super(message);
  }
}
