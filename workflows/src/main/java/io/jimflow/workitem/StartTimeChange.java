package io.jimflow.workitem;

import java.time.Instant;

/** A new planned start for an item that has not started yet; also wakes a suspended item. */
public record StartTimeChange(Instant startTime) {}
