package io.jimflow.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;

/** Attribute maps as JSON text, keys sorted so equal maps give equal text. */
public final class AttributesJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<TreeMap<String, String>> MAP = new TypeReference<>() {};

  private AttributesJson() {}

  public static String write(Map<String, String> attributes) {
    try {
      return MAPPER.writeValueAsString(new TreeMap<>(attributes));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("attributes cannot be written as JSON", e);
    }
  }

  public static Map<String, String> read(String json) {
    if (json == null || json.isEmpty()) {
      return new TreeMap<>();
    }
    try {
      return MAPPER.readValue(json, MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored attributes are not valid JSON: " + e.getMessage(), e);
    }
  }
}
