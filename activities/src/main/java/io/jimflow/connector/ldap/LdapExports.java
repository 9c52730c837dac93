package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.MultiValue;
import io.jimflow.sync.OutboundRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies exports to a directory: creates (object classes, DN from the template), updates (a rename
 * or move when the DN template's inputs change, then replace, add and delete of values), deletes.
 *
 * <p>Each operation is computed from the entry as it is now, so sending an export again after a
 * lost connection is harmless: an add that already happened is found and brought to the export's
 * values, a modify adds only missing values, a delete of a gone entry succeeds.
 */
public final class LdapExports {

  private final LdapDirectory directory;
  private final String anchor;
  private final Set<String> multiValued;

  public LdapExports(LdapDirectory directory, String anchor, Set<String> multiValued) {
    this.directory = directory;
    this.anchor = anchor;
    this.multiValued = multiValued;
  }

  /**
   * One export's outcome.
   *
   * @param anchor the object's anchor after the export (a created entry's entryUUID)
   * @param errorType null when it succeeded
   */
  public record Result(String anchor, String dn, String errorType, String errorMessage) {
    public boolean succeeded() {
      return errorType == null;
    }

    static Result ok(String anchor, String dn) {
      return new Result(anchor, dn, null, null);
    }

    static Result error(String dn, String type, String message) {
      return new Result(null, dn, type, message);
    }

    static Result ldap(String dn, LDAPException e) {
      return error(
          dn,
          "Ldap" + capitalised(e.getResultCode().getName()),
          "LDAP " + LdapDirectory.describe(e.getResultCode(), e.getDiagnosticMessage()));
    }
  }

  /**
   * Applies one export.
   *
   * @param currentAnchor the object's anchor in the connector space (provisional before creation)
   * @param attributes the values the object should end up with
   */
  public Result apply(ExportChange change, String currentAnchor, Map<String, String> attributes) {
    return switch (change) {
      case Create -> create(attributes);
      case Update -> update(currentAnchor, attributes);
      case Delete -> delete(currentAnchor);
    };
  }

  private Result create(Map<String, String> attributes) {
    LdapSettings settings = directory.settings();
    String dn = settings.dnFor(attributes);
    if (dn == null) {
      return Result.error(
          null,
          "MissingDnValue",
          "the DN template "
              + settings.dnTemplate()
              + " needs values for "
              + settings.dnTemplateAttributes());
    }
    Entry entry = new Entry(dn);
    entry.addAttribute("objectClass", settings.objectClasses().toArray(String[]::new));
    attributes.forEach(
        (name, value) -> {
          List<String> values = values(name, value);
          if (!values.isEmpty()) {
            entry.addAttribute(name, values.toArray(String[]::new));
          }
        });
    try {
      directory.add(entry);
    } catch (LDAPException e) {
      if (e.getResultCode() != ResultCode.ENTRY_ALREADY_EXISTS) {
        return Result.ldap(dn, e);
      }
      // Sent before by an attempt that did not live to record it: bring it to these values.
      SearchResultEntry existing = directory.read(dn, requested(attributes));
      if (existing == null) {
        return Result.ldap(dn, e);
      }
      Result modified = modify(existing, attributes);
      if (!modified.succeeded()) {
        return modified;
      }
    }
    SearchResultEntry created = directory.read(dn, anchor);
    String assigned = created == null ? null : created.getAttributeValue(anchor);
    return Result.ok(assigned, dn);
  }

  private Result update(String currentAnchor, Map<String, String> attributes) {
    if (OutboundRule.isProvisional(currentAnchor)) {
      return Result.error(
          null,
          "NotCreated",
          "the object was never created in the directory (its create export did not succeed)");
    }
    SearchResultEntry entry = directory.findByAnchor(anchor, currentAnchor, requested(attributes));
    if (entry == null) {
      return Result.error(
          null,
          "LdapNoSuchObject",
          "LDAP noSuchObject (32): no entry below "
              + directory.settings().baseDn()
              + " has "
              + anchor
              + "="
              + currentAnchor);
    }
    return modify(entry, attributes);
  }

  private Result modify(SearchResultEntry entry, Map<String, String> attributes) {
    String dn = entry.getDN();
    LdapSettings settings = directory.settings();
    if (settings.dnTemplate() != null) {
      Map<String, String> merged = new HashMap<>();
      for (String name : settings.dnTemplateAttributes()) {
        String value = entry.getAttributeValue(name);
        merged.put(name, value);
      }
      attributes.forEach(
          (name, value) -> {
            if (settings.dnTemplateAttributes().contains(name) && !value.isEmpty()) {
              merged.put(name, value);
            }
          });
      String wanted = settings.dnFor(merged);
      if (wanted != null && !LdapDirectory.sameDn(dn, wanted)) {
        try {
          DN newDn = new DN(wanted);
          DN parent = newDn.getParent();
          DN oldParent = new DN(dn).getParent();
          RDN rdn = newDn.getRDN();
          directory.rename(
              dn,
              rdn.toString(),
              parent != null && !parent.equals(oldParent) ? parent.toString() : null);
          dn = wanted;
        } catch (LDAPException e) {
          return Result.ldap(dn, e);
        }
      }
    }
    List<Modification> modifications = new ArrayList<>();
    attributes.forEach(
        (name, value) -> {
          List<String> desired = values(name, value);
          List<String> current = LdapDirectory.values(entry, name);
          if (multiValued.contains(name)) {
            Set<String> add = new LinkedHashSet<>(desired);
            add.removeAll(current);
            Set<String> remove = new LinkedHashSet<>(current);
            remove.removeAll(desired);
            if (!add.isEmpty()) {
              modifications.add(
                  new Modification(ModificationType.ADD, name, add.toArray(String[]::new)));
            }
            if (!remove.isEmpty()) {
              modifications.add(
                  new Modification(ModificationType.DELETE, name, remove.toArray(String[]::new)));
            }
          } else if (!desired.equals(current)) {
            modifications.add(
                new Modification(ModificationType.REPLACE, name, desired.toArray(String[]::new)));
          }
        });
    if (!modifications.isEmpty()) {
      try {
        directory.modify(dn, modifications);
      } catch (LDAPException e) {
        return Result.ldap(dn, e);
      }
    }
    return Result.ok(entry.getAttributeValue(anchor), dn);
  }

  private Result delete(String currentAnchor) {
    if (OutboundRule.isProvisional(currentAnchor)) {
      return Result.ok(currentAnchor, null);
    }
    SearchResultEntry entry = directory.findByAnchor(anchor, currentAnchor, "1.1");
    if (entry == null) {
      return Result.ok(currentAnchor, null);
    }
    try {
      directory.delete(entry.getDN());
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.NO_SUCH_OBJECT) {
        return Result.ok(currentAnchor, entry.getDN());
      }
      return Result.ldap(entry.getDN(), e);
    }
    return Result.ok(currentAnchor, entry.getDN());
  }

  private List<String> values(String name, String value) {
    if (value == null || value.isEmpty()) {
      return List.of();
    }
    return multiValued.contains(name) ? MultiValue.split(value) : List.of(value);
  }

  private String[] requested(Map<String, String> attributes) {
    Set<String> names = new LinkedHashSet<>(attributes.keySet());
    names.addAll(directory.settings().dnTemplateAttributes());
    names.add(anchor);
    return names.toArray(String[]::new);
  }

  private static String capitalised(String name) {
    String camel = name.replace(" ", "");
    return camel.isEmpty() ? camel : Character.toUpperCase(camel.charAt(0)) + camel.substring(1);
  }
}
