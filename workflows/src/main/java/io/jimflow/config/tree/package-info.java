/**
 * The one reader of jimflow's YAML configuration files: a tree whose nodes know their line, typed
 * conversions that report instead of throwing, and a {@link io.jimflow.config.tree.ConfigException}
 * that lists every problem of a file as {@code file:line: path: message}, so that nothing of a file
 * with a problem is used.
 *
 * <p>It sits in the workflows module only so that the starter (schedules files) and the activities
 * ({@code connected-systems.yaml}) can share it. Workflow code never uses it: workflows read no
 * configuration (checked by the worker's {@code ArchitectureTest}).
 */
package io.jimflow.config.tree;
