package io.jimflow.config.tree;

import java.util.Optional;

/**
 * Turns a node into a typed value, reporting what is wrong with it instead of throwing.
 *
 * @param <T> the value's type
 */
@FunctionalInterface
public interface Conversion<T> {

  /** The value, or empty after reporting to {@code problems} why the node does not hold one. */
  Optional<T> convert(ConfigNode node, Problems problems);

  /**
   * This conversion followed by a check; {@code check} returns an error message or null if fine.
   */
  default Conversion<T> check(java.util.function.Function<T, String> check) {
    return (node, problems) ->
        convert(node, problems)
            .flatMap(
                value -> {
                  String error = check.apply(value);
                  if (error == null) {
                    return Optional.of(value);
                  }
                  problems.at(node, error);
                  return Optional.empty();
                });
  }
}
