package io.jimflow.store;

import java.sql.SQLException;
import java.util.List;

/**
 * Commits a page of objects so that one object the store refuses never holds back the others: when
 * the store refuses the page's transaction for what it wrote (SQLSTATE class 22, a data exception
 * such as a NUL character or a value too long, or 23, an integrity constraint one object breaks),
 * each object is committed in a transaction of its own, and one refused alone is handed to the
 * caller to record as an error. Any other failure (the connection lost, a deadlock, a later attempt
 * that took the run over) is thrown as it was, for the attempt to be retried or to stop.
 */
public final class OneAtATime {

  private OneAtATime() {}

  /** Commits these objects in one transaction, or throws. */
  @FunctionalInterface
  public interface Commit<T> {
    void commit(List<T> objects);
  }

  /** Records that the store refused this object alone. */
  @FunctionalInterface
  public interface Refused<T> {
    void refused(T object, StoreException failure);
  }

  public static <T> void commit(List<T> objects, Commit<T> commit, Refused<T> refused) {
    if (objects.isEmpty()) {
      return;
    }
    try {
      commit.commit(objects);
      return;
    } catch (StoreException failure) {
      rethrowUnlessRefused(failure);
      if (objects.size() == 1) {
        refused.refused(objects.get(0), failure);
        return;
      }
    }
    for (T object : objects) {
      try {
        commit.commit(List.of(object));
      } catch (StoreException failure) {
        rethrowUnlessRefused(failure);
        refused.refused(object, failure);
      }
    }
  }

  private static void rethrowUnlessRefused(StoreException failure) {
    if (!isRefusal(failure)) {
      throw failure;
    }
  }

  /** Whether the store refused the data written (SQLSTATE class 22 or 23), not failed itself. */
  static boolean isRefusal(StoreException failure) {
    if (failure instanceof SupersededAttemptException) {
      return false;
    }
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        return state.startsWith("22") || state.startsWith("23");
      }
    }
    return false;
  }

  /** Why the store refused a write, in one line: the driver's message without its cause chain. */
  public static String reason(StoreException failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    String message = String.valueOf(cause.getMessage());
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 500 ? line.substring(0, 500) + "…" : line;
  }
}
