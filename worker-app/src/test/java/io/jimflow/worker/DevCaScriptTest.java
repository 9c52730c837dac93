package io.jimflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.jimflow.worker.dev.TemporalCli;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/make-dev-ca.sh} makes what the TLS compose overlay mounts: certificates that chain
 * to its CA, with the names the containers use, and keys the Java clients load.
 */
class DevCaScriptTest {

  private final Path home = TemporalCli.projectHome().orElseThrow();

  @TempDir Path dir;

  @Test
  void theDevelopmentCaIssuesCertificatesForTheFrontendTheCodecServerAndTheClients()
      throws Exception {
    if ("true".equals(System.getenv("CI"))) {
      assertThat(onPath("openssl")).as("openssl (installed by .ci/run)").isTrue();
    }
    assumeThat(onPath("openssl"))
        .as("no openssl to test scripts/make-dev-ca.sh: apt-get install openssl")
        .isTrue();

    String made = run(home.resolve("scripts/make-dev-ca.sh").toString(), dir.toString());
    assertThat(made)
        .contains(
            "ca.pem", "temporal.pem", "codec-server.pem", "ui.pem", "prometheus.pem", "client.pem");

    assertThat(
            run(
                "openssl",
                "verify",
                "-CAfile",
                dir.resolve("ca.pem").toString(),
                dir.resolve("temporal.pem").toString(),
                dir.resolve("codec-server.pem").toString(),
                dir.resolve("ui.pem").toString(),
                dir.resolve("prometheus.pem").toString(),
                dir.resolve("client.pem").toString()))
        .contains(
            "temporal.pem: OK",
            "codec-server.pem: OK",
            "ui.pem: OK",
            "prometheus.pem: OK",
            "client.pem: OK");
    assertThat(run("openssl", "x509", "-noout", "-ext", "subjectAltName", "-in", pem("ui")))
        .as("the UI's certificate names the host browsers open it on")
        .contains("DNS:localhost", "IP Address:127.0.0.1");
    assertThat(run("openssl", "x509", "-noout", "-ext", "subjectAltName", "-in", pem("temporal")))
        .contains("DNS:temporal", "DNS:localhost");
    assertThat(
            run("openssl", "x509", "-noout", "-ext", "subjectAltName", "-in", pem("codec-server")))
        .contains("DNS:localhost", "IP Address:127.0.0.1");
    try (InputStream cert = Files.newInputStream(dir.resolve("client.pem"));
        InputStream key = Files.newInputStream(dir.resolve("client-key.pem"))) {
      assertThat(SimpleSslContextBuilder.forPKCS8(cert, key).build().isClient()).isTrue();
    }
    if (Files.exists(dir.resolve("truststore.p12"))) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(dir.resolve("truststore.p12"))) {
        trust.load(in, "changeit".toCharArray());
      }
      assertThat(trust.isCertificateEntry("jimflow-dev-ca")).isTrue();
    }

    for (String key : List.of("ca", "temporal", "codec-server", "ui", "prometheus", "client")) {
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(dir.resolve(key + "-key.pem"))))
          .as("%s-key.pem readable by its owner only", key)
          .isEqualTo("rw-------");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca.pem"))))
        .isEqualTo("rw-r--r--");

    String again = run(home.resolve("scripts/make-dev-ca.sh").toString(), dir.toString());
    assertThat(again).as("a second run keeps what exists").doesNotContain("wrote");
  }

  private String pem(String name) {
    return dir.resolve(name + ".pem").toString();
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s says:%n%s", String.join(" ", command), out).isZero();
    return out;
  }

  private static boolean onPath(String name) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isBlank() && Files.isExecutable(Path.of(d, name))) {
        return true;
      }
    }
    return false;
  }
}
