package io.jimflow.worker.health;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Principal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who counts as authorized on the actuator endpoints: a request carrying {@code Authorization:
 * Bearer <jimflow.management.access-token>}. Health shows its details (Temporal, the store) only to
 * such requests ({@code show-details: when-authorized}); everyone else sees UP or DOWN. Without a
 * token nobody is authorized.
 */
@Configuration(proxyBeanMethods = false)
public class ManagementAccess {

  @Bean
  FilterRegistrationBean<OncePerRequestFilter> managementAccessFilter(
      @Value("${jimflow.management.access-token:}") String token) {
    byte[] expected =
        token.isBlank() ? null : ("Bearer " + token.strip()).getBytes(StandardCharsets.UTF_8);
    OncePerRequestFilter filter =
        new OncePerRequestFilter() {
          @Override
          protected void doFilterInternal(
              HttpServletRequest request, HttpServletResponse response, FilterChain chain)
              throws ServletException, IOException {
            String given = request.getHeader(HttpHeaders.AUTHORIZATION);
            boolean operator =
                expected != null
                    && given != null
                    && MessageDigest.isEqual(
                        expected, given.strip().getBytes(StandardCharsets.UTF_8));
            chain.doFilter(operator ? new Operator(request) : request, response);
          }
        };
    FilterRegistrationBean<OncePerRequestFilter> registration =
        new FilterRegistrationBean<>(filter);
    registration.addUrlPatterns("/actuator/*");
    return registration;
  }

  /** The request of an operator who presented the management token. */
  private static final class Operator extends HttpServletRequestWrapper {
    private static final Principal PRINCIPAL = () -> "jimflow-operator";

    Operator(HttpServletRequest request) {
      super(request);
    }

    @Override
    public Principal getUserPrincipal() {
      return PRINCIPAL;
    }

    @Override
    public boolean isUserInRole(String role) {
      return true;
    }
  }
}
