package io.jimflow.common;

import io.jimflow.common.JimflowSearchAttributes.Registration;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks and registers jimflow's custom search attributes ({@link JimflowSearchAttributes#ALL}) in
 * one namespace. Without them every workflow task that sets one fails, so the worker checks them at
 * start and {@code ./jimflow setup} registers them.
 *
 * <p>Registering is idempotent: attributes already present with the right type are left alone. An
 * attribute present with another type is never changed here (that would drop its indexed values);
 * it is reported with the commands that replace it.
 */
public final class SearchAttributeSetup {

  private final WorkflowServiceStubs stubs;
  private final String namespace;

  public SearchAttributeSetup(WorkflowServiceStubs stubs, String namespace) {
    this.stubs = stubs;
    this.namespace = namespace;
  }

  /** What the namespace has now, compared with what jimflow needs; changes nothing. */
  public Report inspect() {
    return withOperator(operator -> compare(customAttributes(operator), List.of()));
  }

  /** Registers the attributes that are missing and reports what it found and did. */
  public Report registerMissing() {
    return withOperator(
        operator -> {
          Report before = compare(customAttributes(operator), List.of());
          if (before.missing().isEmpty()) {
            return before;
          }
          Map<String, IndexedValueType> toAdd = new LinkedHashMap<>();
          before.missing().forEach(sa -> toAdd.put(sa.name(), indexedType(sa.type())));
          operator
              .blockingStub()
              .addSearchAttributes(
                  AddSearchAttributesRequest.newBuilder()
                      .setNamespace(namespace)
                      .putAllSearchAttributes(toAdd)
                      .build());
          return compare(customAttributes(operator), before.missing());
        });
  }

  private Map<String, String> customAttributes(OperatorServiceStubs operator) {
    return operator
        .blockingStub()
        .listSearchAttributes(
            ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build())
        .getCustomAttributesMap()
        .entrySet()
        .stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> typeName(e.getValue())));
  }

  private Report compare(Map<String, String> found, List<Registration> registered) {
    List<Registration> present = new ArrayList<>();
    List<Registration> missing = new ArrayList<>();
    List<Mistyped> mistyped = new ArrayList<>();
    for (Registration wanted : JimflowSearchAttributes.ALL) {
      String type = found.get(wanted.name());
      if (type == null) {
        missing.add(wanted);
      } else if (!type.equals(wanted.type())) {
        mistyped.add(new Mistyped(wanted, type));
      } else if (!registered.contains(wanted)) {
        present.add(wanted);
      }
    }
    List<Registration> added =
        registered.stream().filter(sa -> !missing.contains(sa)).collect(Collectors.toList());
    return new Report(namespace, present, added, missing, mistyped);
  }

  private <T> T withOperator(Function<OperatorServiceStubs, T> call) {
    // The operator service is reached like the workflow service: same target, TLS and credentials.
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder(stubs.getOptions())
                .validateAndBuildWithDefaults());
    try {
      return call.apply(operator);
    } finally {
      operator.shutdownNow();
    }
  }

  /**
   * The server's type name as the Temporal CLI and UI print it, e.g. {@code Keyword}, {@code Int}.
   */
  static String typeName(IndexedValueType type) {
    String upper = type.name().replace("INDEXED_VALUE_TYPE_", "");
    return switch (upper) {
      case "KEYWORD_LIST" -> "KeywordList";
      case "DATETIME" -> "Datetime";
      default -> upper.charAt(0) + upper.substring(1).toLowerCase(Locale.ROOT);
    };
  }

  static IndexedValueType indexedType(String typeName) {
    return switch (typeName) {
      case "Int" -> IndexedValueType.INDEXED_VALUE_TYPE_INT;
      case "Keyword" -> IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
      case "Bool" -> IndexedValueType.INDEXED_VALUE_TYPE_BOOL;
      default -> throw new IllegalArgumentException("no search attribute type " + typeName);
    };
  }

  /** An attribute the namespace has with another type than jimflow writes. */
  public record Mistyped(Registration wanted, String actualType) {}

  /**
   * The state of one namespace's jimflow search attributes.
   *
   * @param present already there with the right type
   * @param registered added by this call
   * @param missing still absent
   * @param mistyped present with a type jimflow cannot write
   */
  public record Report(
      String namespace,
      List<Registration> present,
      List<Registration> registered,
      List<Registration> missing,
      List<Mistyped> mistyped) {

    public boolean ready() {
      return missing.isEmpty() && mistyped.isEmpty();
    }

    /** One line per missing or mistyped attribute, naming it; empty when ready. */
    public List<String> problems() {
      List<String> lines = new ArrayList<>();
      for (Registration sa : missing) {
        lines.add("search attribute " + sa.name() + " (" + sa.type() + ") is not registered");
      }
      for (Mistyped m : mistyped) {
        lines.add(
            "search attribute "
                + m.wanted().name()
                + " is registered as "
                + m.actualType()
                + ", jimflow needs "
                + m.wanted().type());
      }
      return lines;
    }

    /**
     * The commands that fix every problem, in order; empty when ready.
     *
     * @param connectionArgs the connection options to repeat in them, e.g. {@code --address
     *     temporal:7233}
     */
    public List<String> fixes(String connectionArgs) {
      List<String> lines = new ArrayList<>();
      if (ready()) {
        return lines;
      }
      String args =
          (connectionArgs.isBlank() ? "" : " " + connectionArgs.strip())
              + " --namespace "
              + namespace;
      for (Mistyped m : mistyped) {
        lines.add(
            "temporal operator search-attribute remove"
                + args
                + " --name "
                + m.wanted().name()
                + " --yes   (drops its indexed values)");
      }
      lines.add("./jimflow setup" + args);
      return lines;
    }
  }
}
