package io.jimflow.workitem;

/** Sent by a run activity whose worker is shutting down; token as in {@link RunClaim}. */
public record ShutdownNotice(long token) {}
