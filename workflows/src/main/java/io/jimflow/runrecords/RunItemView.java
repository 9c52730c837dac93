package io.jimflow.runrecords;

/** One run item (JIM's RPEI): an object, what happened to it, and its error if it had one. */
public record RunItemView(
    long sequence, String object, String changeType, String errorType, String errorMessage) {}
