package io.jimflow.sync;

import java.util.List;

/**
 * The rules the partition tests synchronise by: HR people join person MVOs by employeeId, then by
 * mail, and project otherwise; only those with a department are in scope. Persons go to the
 * directory, anchored by their accountName.
 */
final class PeopleRules {

  static final SyncEngine ENGINE =
      new SyncEngine(
          new SyncRules(
              List.of(
                  new InboundRule(
                      "hr-people",
                      "hr",
                      "person",
                      List.of(new Condition("department", Condition.Operator.PRESENT, null)),
                      "person",
                      true,
                      List.of(
                          new JoinPair("employeeId", "employeeId"), new JoinPair("email", "mail")),
                      List.of(
                          new AttributeFlow("employeeId", "employeeId"),
                          new AttributeFlow("email", "mail"),
                          new AttributeFlow("login", "accountName"),
                          new AttributeFlow("department", "department")))),
              List.of(
                  new OutboundRule(
                      "directory-users",
                      "directory",
                      "user",
                      "uid",
                      "person",
                      List.of(),
                      List.of(new AttributeFlow("accountName", "uid")),
                      true)),
              List.of()));

  private PeopleRules() {}
}
