package io.jimflow.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A chat webhook's stand-in on 127.0.0.1: it keeps every JSON message posted to it. */
final class WebhookReceiver implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();

  WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          received.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    server.start();
  }

  /** The URL to configure as the worker's webhook. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /** The messages received so far, in order (a live view). */
  List<JsonNode> received() {
    return received;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
