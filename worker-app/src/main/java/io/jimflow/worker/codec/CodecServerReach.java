package io.jimflow.worker.codec;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Where the codec server answers: on loopback always, beyond it only on its bind address ({@code
 * jimflow.codec-server.bind-address}; {@code 0.0.0.0} or {@code ::} for every address). Reachable
 * beyond loopback, it must have an access token: {@link #problem} says why a worker must not start.
 */
final class CodecServerReach {

  private final String bindAddress;
  private final InetAddress bound;

  CodecServerReach(String bindAddress) {
    this.bindAddress = bindAddress;
    this.bound = bindAddress == null ? null : address(bindAddress);
  }

  /** Whether a request that arrived on the local address {@code localAddress} is answered. */
  boolean answers(String localAddress) {
    InetAddress local;
    try {
      local = InetAddress.getByName(localAddress);
    } catch (UnknownHostException | RuntimeException e) {
      return false;
    }
    if (local.isLoopbackAddress()) {
      return true;
    }
    return bound != null && (bound.isAnyLocalAddress() || bound.equals(local));
  }

  /** Whether other hosts may reach it: a bind address that is not a loopback one. */
  boolean beyondLoopback() {
    return bound != null && !bound.isLoopbackAddress();
  }

  /** Why a worker with these settings must not start, if it must not. */
  static Optional<String> problem(CodecServerSettings settings) {
    if (!settings.enabled() || settings.bindAddress() == null) {
      return Optional.empty();
    }
    CodecServerReach reach = new CodecServerReach(settings.bindAddress());
    if (reach.beyondLoopback() && settings.accessToken() == null) {
      return Optional.of(
          "the codec server would decrypt for anyone who reaches "
              + settings.bindAddress()
              + " (jimflow.codec-server.bind-address) without an access token:"
              + " set jimflow.codec-server.access-token (JIMFLOW_CODEC_SERVER_ACCESS_TOKEN),"
              + " bind it to loopback, or turn it off (jimflow.codec-server.enabled=false)");
    }
    return Optional.empty();
  }

  private static InetAddress address(String bindAddress) {
    try {
      return InetAddress.getByName(bindAddress);
    } catch (UnknownHostException e) {
      throw new CodecServerExposedException(
          "jimflow.codec-server.bind-address '" + bindAddress + "' is no address of this host");
    }
  }

  @Override
  public String toString() {
    return bindAddress == null ? "loopback" : bindAddress;
  }
}
