package io.jimflow.common;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/**
 * The custom search attributes jimflow keeps current on its workflows.
 *
 * <p>They must be registered on the server before use: the dev server launcher passes {@link #ALL}
 * as {@code --search-attribute NAME=TYPE}; any other server gets them from {@code ./jimflow setup}
 * ({@link SearchAttributeSetup}), and the worker checks them at start.
 */
public final class JimflowSearchAttributes {

  public static final SearchAttributeKey<String> SCHEDULE_ID =
      SearchAttributeKey.forKeyword("JimflowScheduleId");
  public static final SearchAttributeKey<String> STATUS =
      SearchAttributeKey.forKeyword("JimflowStatus");
  public static final SearchAttributeKey<Long> STEP_GROUP =
      SearchAttributeKey.forLong("JimflowStepGroup");

  /** True while a step of the execution waits in AwaitingApproval. */
  public static final SearchAttributeKey<Boolean> AWAITING_APPROVAL =
      SearchAttributeKey.forBoolean("JimflowAwaitingApproval");

  public static final SearchAttributeKey<String> WORK_ITEM_STATE =
      SearchAttributeKey.forKeyword("JimflowWorkItemState");
  public static final SearchAttributeKey<String> WORK_ITEM_KIND =
      SearchAttributeKey.forKeyword("JimflowWorkItemKind");

  /**
   * Every key with its server type name, as {@code temporal server start-dev --search-attribute}
   * takes it.
   */
  public static final List<Registration> ALL =
      List.of(
          new Registration(SCHEDULE_ID.getName(), "Keyword"),
          new Registration(STATUS.getName(), "Keyword"),
          new Registration(STEP_GROUP.getName(), "Int"),
          new Registration(AWAITING_APPROVAL.getName(), "Bool"),
          new Registration(WORK_ITEM_STATE.getName(), "Keyword"),
          new Registration(WORK_ITEM_KIND.getName(), "Keyword"));

  /** A search attribute's name and server-side type. */
  public record Registration(String name, String type) {
    public String asCliFlagValue() {
      return name + "=" + type;
    }
  }

  private JimflowSearchAttributes() {}
}
