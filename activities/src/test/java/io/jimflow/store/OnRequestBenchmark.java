package io.jimflow.store;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Marks a benchmark of the data plane: a measurement, not a test. It runs only when given the HR
 * file to measure with ({@code -Djimflow.benchmark.file}), so a normal test run lists it as skipped
 * in one line and spends no time on it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(
    named = "jimflow.benchmark.file",
    matches = ".+",
    disabledReason =
        "benchmarks, not tests: they run only with -Djimflow.benchmark.file=<generated HR CSV>"
            + " (docs/benchmarks.md)")
public @interface OnRequestBenchmark {}
