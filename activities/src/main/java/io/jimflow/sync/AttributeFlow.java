package io.jimflow.sync;

/** Copies the {@code source} attribute's value to the {@code target} attribute. */
public record AttributeFlow(String source, String target) {}
