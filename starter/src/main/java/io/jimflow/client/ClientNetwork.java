package io.jimflow.client;

import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.util.concurrent.TimeUnit;

/**
 * The network thread of one client, owned by it: closing the client ends the thread at once.
 *
 * <p>With gRPC's shared event loop, the thread outlives the channel by a second and sits in a
 * native poll when the CLI exits; the JVM then waits up to 300 ms for it before it ends. A
 * short-lived command notices that.
 */
final class ClientNetwork implements AutoCloseable {

  private final NioEventLoopGroup group =
      new NioEventLoopGroup(
          1,
          runnable -> {
            Thread thread = new Thread(runnable, "jimflow-client-network");
            thread.setDaemon(true);
            return thread;
          });

  /** Makes the channel of {@code options} use this network thread. */
  WorkflowServiceStubsOptions.Builder apply(WorkflowServiceStubsOptions.Builder options) {
    return options.setChannelInitializer(
        builder -> {
          if (builder instanceof NettyChannelBuilder netty) {
            netty.eventLoopGroup(group).channelType(NioSocketChannel.class);
          }
        });
  }

  /** Ends the thread without a quiet period; the channel must be shut down first. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
  }
}
