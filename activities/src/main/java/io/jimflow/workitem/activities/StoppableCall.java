package io.jimflow.workitem.activities;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.MDC;

/**
 * A handler call on a thread of its own, so that the activity can interrupt it and, if it does not
 * stop, return without it (releasing its slot). The thread is a daemon: a runaway handler never
 * keeps a stopping worker process alive.
 */
final class StoppableCall<T> {

  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final Thread thread;

  private StoppableCall(String name, Callable<T> body) {
    // The activity's logging context (workflow and activity ids) goes with the handler.
    Map<String, String> logContext = MDC.getCopyOfContextMap();
    thread =
        new Thread(
            () -> {
              if (logContext != null) {
                MDC.setContextMap(logContext);
              }
              try {
                result.complete(body.call());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            name);
    thread.setDaemon(true);
  }

  static <T> StoppableCall<T> start(String name, Callable<T> body) {
    StoppableCall<T> call = new StoppableCall<>(name, body);
    call.thread.start();
    return call;
  }

  CompletableFuture<T> result() {
    return result;
  }

  Thread thread() {
    return thread;
  }

  boolean isDone() {
    return result.isDone();
  }

  void interrupt() {
    thread.interrupt();
  }

  /** Waits up to {@code bound} for the call to end; true when it has. */
  boolean awaitEnd(Duration bound) throws InterruptedException {
    try {
      result.get(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException stillRunning) {
      return false;
    } catch (ExecutionException | java.util.concurrent.CancellationException ended) {
      return true;
    }
    return true;
  }

  /** The call's result, or what it threw; only once {@link #isDone()}. */
  T get() throws Exception {
    try {
      return result.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
