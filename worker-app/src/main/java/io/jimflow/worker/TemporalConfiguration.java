package io.jimflow.worker;

import io.jimflow.encryption.PayloadEncryption;
import io.temporal.common.converter.DataConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the workers read and write payloads: encrypted with the payload keys when {@code
 * jimflow.payload-encryption.keys-file} ({@code JIMFLOW_PAYLOAD_ENCRYPTION_KEYS_FILE}) or {@code
 * jimflow.payload-encryption.keys} names them. What an unreadable input does is set where the
 * workflows are registered ({@link TemporalWorkersConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
public class TemporalConfiguration {

  private static final Logger log = LoggerFactory.getLogger(TemporalConfiguration.class);

  @Bean
  public PayloadEncryption payloadEncryption(
      @Value("${jimflow.payload-encryption.keys-file:}") String keysFile,
      @Value("${jimflow.payload-encryption.keys:}") String keys) {
    PayloadEncryption encryption = PayloadEncryption.of(keysFile, keys);
    log.info("{}", encryption);
    return encryption;
  }

  @Bean
  public DataConverter mainDataConverter(PayloadEncryption encryption) {
    // With keys, inputs, signals and updates that are not encrypted are refused.
    return encryption.workerDataConverter();
  }
}
