package io.jimflow.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP ports for the servers and workers an e2e run starts, reserved so that no two starts can be
 * handed the same port.
 *
 * <p>"Bind port 0, read the port, close, pass it on" loses races: until the new process binds the
 * port, the kernel may give it to anyone else who binds port 0 — another test run, or the Temporal
 * dev server itself, which picks its internal ports that way. So ports come from below the kernel's
 * ephemeral range (which port-0 binds never return) and each is held by an exclusive lock on a file
 * under {@code java.io.tmpdir/jimflow-test-ports/} for as long as this JVM lives (the operating
 * system drops the lock when the JVM ends, however it ends), so concurrent runs on one machine skip
 * each other's ports. A port something else already listens on is skipped too.
 */
final class ReservedPorts {

  private static final Path LOCKS =
      Path.of(System.getProperty("java.io.tmpdir"), "jimflow-test-ports");
  private static final int FIRST = 20_000;
  private static final List<FileLock> HELD = new ArrayList<>();

  private ReservedPorts() {}

  /** A port no other reservation holds and nothing listens on; held until the JVM exits. */
  static int reserve() {
    return reserveUpTo(Integer.MAX_VALUE);
  }

  /**
   * Like {@link #reserve()}, at most {@code highest}: the official Temporal server keeps its ports
   * in a PostgreSQL smallint, so its ports stay below 32768.
   */
  static synchronized int reserveUpTo(int highest) {
    int last = Math.min(highest, ephemeralRangeStart() - 1);
    int span = last - FIRST + 1;
    int offset = ThreadLocalRandom.current().nextInt(span);
    try {
      Files.createDirectories(LOCKS);
      for (int i = 0; i < span; i++) {
        int port = FIRST + (offset + i) % span;
        FileLock lock = tryLock(port);
        if (lock == null) {
          continue;
        }
        if (bindable(port)) {
          HELD.add(lock);
          return port;
        }
        lock.channel().close();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot reserve a TCP port under " + LOCKS, e);
    }
    throw new IllegalStateException("no free TCP port between " + FIRST + " and " + last);
  }

  private static FileLock tryLock(int port) throws IOException {
    FileChannel channel =
        FileChannel.open(
            LOCKS.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return lock;
      }
    } catch (OverlappingFileLockException heldByThisJvm) {
      // fall through: taken
    }
    channel.close();
    return null;
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /** The low end of the kernel's port-0 range (Linux: ip_local_port_range; else IANA's 49152). */
  private static int ephemeralRangeStart() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
      return Math.max(FIRST + 1_000, Integer.parseInt(range.split("\\s+")[0]));
    } catch (IOException | RuntimeException notLinux) {
      return 49_152;
    }
  }
}
