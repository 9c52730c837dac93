package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.UpdatableLDAPRequest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One export of a batch: the directory operations still to send for it, the DNs they touch, and its
 * outcome once settled (null until then).
 */
final class ExportPlan {
  final LdapExports.Export export;
  final Deque<UpdatableLDAPRequest> operations = new ArrayDeque<>();
  final Set<String> dns = new HashSet<>();
  String dn;
  String assignedAnchor;
  LdapExports.Result result;

  ExportPlan(LdapExports.Export export) {
    this.export = export;
  }

  void touches(String dn) {
    if (dn != null) {
      dns.add(normalised(dn));
    }
  }

  /**
   * Where a batch's exports from {@code from} on must pause, given the DNs each touches: before the
   * first export that touches a DN an earlier one of the same run touches (the directory may apply
   * operations in flight together in any order); at least one export further.
   */
  static int conflictFreeEnd(List<Set<String>> touches, int from) {
    Set<String> touched = new HashSet<>();
    int to = from;
    while (to < touches.size()) {
      for (String dn : touches.get(to)) {
        if (touched.contains(dn)) {
          return Math.max(to, from + 1);
        }
      }
      touched.addAll(touches.get(to));
      to++;
    }
    return to;
  }

  private static String normalised(String dn) {
    try {
      return new DN(dn).toNormalizedString();
    } catch (LDAPException e) {
      return dn.toLowerCase(Locale.ROOT);
    }
  }
}
