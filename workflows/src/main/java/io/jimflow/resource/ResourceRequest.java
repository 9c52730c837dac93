package io.jimflow.resource;

/** A claim on one resource, as the activity that delivers it to the resource's lock takes it. */
public record ResourceRequest(String resource, ResourceClaim claim) {}
