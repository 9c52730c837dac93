#!/usr/bin/env bash
# Makes a development certificate authority and the certificates of a TLS-enabled compose stack
# (docker-compose.tls.yml): the Temporal frontend, the Temporal UI, the codec server, Prometheus and
# one client certificate that the workers, the CLI and the Temporal UI present (the frontend
# requires one).
#
#   scripts/make-dev-ca.sh [directory]     (default: ./certs; existing files are kept)
#
# Writes ca.pem (trust it in your browser to open the codec server over https), ca-key.pem,
# temporal.pem/-key.pem (names: temporal, localhost, 127.0.0.1), codec-server.pem/-key.pem
# (localhost, codec-server, 127.0.0.1), ui.pem/-key.pem (localhost, temporal-ui, 127.0.0.1),
# prometheus.pem/-key.pem (localhost, prometheus, 127.0.0.1), client.pem/-key.pem, and truststore.p12 (password
# "changeit", the CA for Java: JAVA_TOOL_OPTIONS=-Djavax.net.ssl.trustStore=...). Keys are PKCS#8
# PEM (EC P-256). For development only: a production stack uses certificates of your own CA.
set -euo pipefail

dir="${1:-certs}"
days=825
command -v openssl >/dev/null || { echo "make-dev-ca: openssl is needed (apt-get install openssl)" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
umask 077

key() { [ -f "$1" ] || openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

if [ ! -f ca.pem ]; then
  key ca-key.pem
  openssl req -x509 -new -key ca-key.pem -sha256 -days "$days" -subj "/CN=jimflow development CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out ca.pem
  echo "make-dev-ca: wrote $dir/ca.pem"
fi

# issue NAME CN SUBJECT_ALT_NAMES EXTENDED_KEY_USAGE
issue() {
  local name="$1" cn="$2" sans="$3" usage="$4"
  [ -f "$name.pem" ] && return 0
  key "$name-key.pem"
  local ext
  ext="$(mktemp)"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n' "$usage" >"$ext"
  [ -n "$sans" ] && printf 'subjectAltName=%s\n' "$sans" >>"$ext"
  openssl req -new -key "$name-key.pem" -subj "/CN=$cn" 2>/dev/null |
    openssl x509 -req -CA ca.pem -CAkey ca-key.pem -CAcreateserial -sha256 -days "$days" \
      -extfile "$ext" -out "$name.pem" 2>/dev/null
  rm -f "$ext"
  echo "make-dev-ca: wrote $dir/$name.pem"
}

issue temporal temporal "DNS:temporal,DNS:localhost,IP:127.0.0.1" serverAuth,clientAuth
issue codec-server codec-server "DNS:localhost,DNS:codec-server,IP:127.0.0.1" serverAuth
issue ui temporal-ui "DNS:localhost,DNS:temporal-ui,IP:127.0.0.1" serverAuth
issue prometheus prometheus "DNS:localhost,DNS:prometheus,IP:127.0.0.1" serverAuth
issue client jimflow-client "" clientAuth

if [ ! -f truststore.p12 ] && command -v keytool >/dev/null; then
  keytool -importcert -noprompt -alias jimflow-dev-ca -file ca.pem -keystore truststore.p12 \
    -storetype PKCS12 -storepass changeit >/dev/null 2>&1
  echo "make-dev-ca: wrote $dir/truststore.p12"
fi
# Certificates are public; private keys are readable by their owner only (0600): the containers
# that read them run as uid 1000 (docs/security.md: chown them to 1000 if yours differs).
chmod 644 ./*.pem
chmod 600 ./*-key.pem
[ -f truststore.p12 ] && chmod 644 truststore.p12
exit 0
