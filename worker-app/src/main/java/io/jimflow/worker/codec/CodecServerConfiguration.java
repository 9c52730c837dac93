package io.jimflow.worker.codec;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets the Temporal UI's pages call the codec server from the browser: CORS for the configured
 * origins, with the headers the UI sends ({@code X-Namespace}, {@code Authorization}).
 */
@Configuration(proxyBeanMethods = false)
public class CodecServerConfiguration {

  @Bean
  WebMvcConfigurer codecServerCors(CodecServerSettings settings) {
    return new WebMvcConfigurer() {
      @Override
      public void addCorsMappings(CorsRegistry registry) {
        registry
            .addMapping(CodecServerController.PATH + "/**")
            .allowedOrigins(settings.allowedOrigins().toArray(String[]::new))
            .allowedMethods("POST")
            .allowedHeaders("Content-Type", "X-Namespace", "Authorization")
            .allowCredentials(true)
            .maxAge(3600);
      }
    };
  }
}
