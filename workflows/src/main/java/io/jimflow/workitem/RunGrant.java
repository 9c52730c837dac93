package io.jimflow.workitem;

/** What a granted claim hands the run activity: the item as it stands at the moment it starts. */
public record RunGrant(String guid, String kind, int instance, String stateJson) {}
