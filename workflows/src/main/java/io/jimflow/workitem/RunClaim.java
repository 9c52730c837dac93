package io.jimflow.workitem;

/**
 * The run activity's request to take a queued item: granted only while the item is still Queued
 * under the same token, so a replacement or cancel that came first wins and the stale attempt does
 * nothing.
 */
public record RunClaim(long token) {}
