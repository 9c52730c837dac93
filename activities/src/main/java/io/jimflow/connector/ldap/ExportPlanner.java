package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
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
 * Turns an export into the directory operations that bring its entry to the export's values,
 * computed from the entry as it is now: an add (object classes, DN from the template), a rename or
 * move when the DN template's inputs changed, a modify of what differs, a delete.
 */
final class ExportPlanner {

  private final LdapDirectory directory;
  private final String anchor;
  private final Set<String> multiValued;

  ExportPlanner(LdapDirectory directory, String anchor, Set<String> multiValued) {
    this.directory = directory;
    this.anchor = anchor;
    this.multiValued = multiValued;
  }

  /** The entries the batch's updates and deletes work on, by anchor. */
  Map<String, SearchResultEntry> lookUp(List<LdapExports.Export> exports) {
    List<String> anchors = new ArrayList<>();
    Set<String> requested = new LinkedHashSet<>();
    for (LdapExports.Export export : exports) {
      if (export.change() != ExportChange.Create
          && !OutboundRule.isProvisional(export.currentAnchor())) {
        anchors.add(export.currentAnchor());
        requested.addAll(List.of(requested(export.attributes())));
      }
    }
    if (anchors.isEmpty()) {
      return Map.of();
    }
    return directory.findByAnchors(anchor, anchors, requested.toArray(String[]::new));
  }

  ExportPlan plan(LdapExports.Export export, Map<String, SearchResultEntry> found) {
    ExportPlan plan = new ExportPlan(export);
    switch (export.change()) {
      case Create -> planCreate(plan);
      case Update -> planUpdate(plan, found.get(export.currentAnchor()));
      case Delete -> planDelete(plan, found.get(export.currentAnchor()));
    }
    return plan;
  }

  private void planCreate(ExportPlan plan) {
    Map<String, String> attributes = plan.export.attributes();
    LdapSettings settings = directory.settings();
    String dn = settings.dnFor(attributes);
    if (dn == null) {
      plan.result =
          LdapExports.Result.error(
              null,
              "MissingDnValue",
              "the DN template "
                  + settings.dnTemplate()
                  + " needs values for "
                  + settings.dnTemplateAttributes());
      return;
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
    AddRequest add = new AddRequest(entry);
    // The directory answers with the anchor it assigned: no read of the new entry.
    add.addControl(new PostReadRequestControl(anchor));
    plan.dn = dn;
    plan.touches(dn);
    plan.operations.add(add);
  }

  private void planUpdate(ExportPlan plan, SearchResultEntry entry) {
    String currentAnchor = plan.export.currentAnchor();
    if (OutboundRule.isProvisional(currentAnchor)) {
      plan.result =
          LdapExports.Result.error(
              null,
              "NotCreated",
              "the object was never created in the directory (its create export did not succeed)");
      return;
    }
    if (entry == null) {
      plan.result =
          LdapExports.Result.error(
              null,
              "LdapNoSuchObject",
              "LDAP noSuchObject (32): no entry below "
                  + directory.settings().baseDn()
                  + " has "
                  + anchor
                  + "="
                  + currentAnchor);
      return;
    }
    planModify(plan, entry);
  }

  private void planDelete(ExportPlan plan, SearchResultEntry entry) {
    String currentAnchor = plan.export.currentAnchor();
    if (OutboundRule.isProvisional(currentAnchor) || entry == null) {
      plan.result = LdapExports.Result.ok(currentAnchor, null);
      return;
    }
    plan.dn = entry.getDN();
    plan.assignedAnchor = currentAnchor;
    plan.touches(plan.dn);
    plan.operations.add(new DeleteRequest(plan.dn));
  }

  /**
   * The operations that bring {@code entry} to the export's values: a rename when the DN template's
   * values changed, then a modify of what differs; none when nothing does.
   */
  void planModify(ExportPlan plan, SearchResultEntry entry) {
    Map<String, String> attributes = plan.export.attributes();
    String dn = entry.getDN();
    plan.touches(dn);
    plan.assignedAnchor = entry.getAttributeValue(anchor);
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
          plan.operations.add(
              new ModifyDNRequest(
                  dn,
                  rdn.toString(),
                  true,
                  parent != null && !parent.equals(oldParent) ? parent.toString() : null));
          dn = wanted;
          plan.touches(dn);
        } catch (LDAPException e) {
          plan.dn = dn;
          plan.result = LdapExports.Result.ldap(dn, e);
          return;
        }
      }
    }
    plan.dn = dn;
    List<Modification> modifications = modifications(entry, attributes);
    if (!modifications.isEmpty()) {
      plan.operations.add(new ModifyRequest(dn, modifications));
    }
  }

  private List<Modification> modifications(Entry entry, Map<String, String> attributes) {
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
    return modifications;
  }

  private List<String> values(String name, String value) {
    if (value == null || value.isEmpty()) {
      return List.of();
    }
    return multiValued.contains(name) ? MultiValue.split(value) : List.of(value);
  }

  /** The attributes to read of an export's entry: its own, the DN template's and the anchor. */
  String[] requested(Map<String, String> attributes) {
    Set<String> names = new LinkedHashSet<>(attributes.keySet());
    names.addAll(directory.settings().dnTemplateAttributes());
    names.add(anchor);
    return names.toArray(String[]::new);
  }
}
