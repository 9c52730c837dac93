package io.jimflow.resource;

/** Gives a resource back, or withdraws a claim that still waits. Unknown claims are ignored. */
public record ResourceRelease(String claimId) {}
