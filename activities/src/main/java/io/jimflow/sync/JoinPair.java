package io.jimflow.sync;

/** A CSO joins the MVO whose {@code mvoAttribute} equals its {@code csoAttribute}. */
public record JoinPair(String csoAttribute, String mvoAttribute) {}
