package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.StaticUtils;
import io.jimflow.connector.ConnectorException;
import io.jimflow.connector.ImportRow;
import io.jimflow.connector.ObjectSource;
import io.jimflow.sync.MultiValue;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Date;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an import reads from a directory: all objects of the configured base, scope and filter in
 * pages (full import), or the objects changed since a watermark (delta import: OpenLDAP's
 * accesslog, or modifyTimestamp/createTimestamp).
 */
public final class LdapObjects {

  /** How many reads of changed entries a delta import has in flight at most. */
  static final int READ_WINDOW = 64;

  private final LdapDirectory directory;
  private final String anchor;
  private final List<String> attributes;
  private final Set<String> multiValued;

  /**
   * @param anchor the attribute that identifies an object (e.g. entryUUID)
   * @param attributes the attributes imported
   * @param multiValued those of them whose values are all kept
   */
  public LdapObjects(
      LdapDirectory directory, String anchor, List<String> attributes, Set<String> multiValued) {
    this.directory = directory;
    this.anchor = anchor;
    this.attributes = attributes;
    this.multiValued = multiValued;
  }

  private String[] requested() {
    List<String> names = new ArrayList<>(attributes);
    if (!names.contains(anchor)) {
      names.add(anchor);
    }
    return names.toArray(String[]::new);
  }

  /** Every object below the base DN, read page by page with the simple paged results control. */
  public ObjectSource all() {
    return paged(filter(), requested());
  }

  /**
   * Objects created or modified at or after {@code since} (generalized time); none are reported
   * deleted, which only a full import finds. Everything when {@code since} is null.
   */
  public ObjectSource changedSince(String since) {
    if (since == null) {
      return all();
    }
    Filter changed =
        Filter.createANDFilter(
            filter(),
            Filter.createORFilter(
                Filter.createGreaterOrEqualFilter("modifyTimestamp", since),
                Filter.createGreaterOrEqualFilter("createTimestamp", since)));
    return paged(changed, requested());
  }

  private Filter filter() {
    try {
      return Filter.create(directory.settings().filter());
    } catch (LDAPException e) {
      throw new ConnectorException("filter " + directory.settings().filter() + " is not valid");
    }
  }

  private ObjectSource paged(Filter filter, String[] requested) {
    LdapSettings settings = directory.settings();
    return new Buffered() {
      private byte[] cookie;
      private boolean started;

      @Override
      boolean more() {
        return !started || cookie != null;
      }

      @Override
      List<ImportRow> fetch(int size) {
        started = true;
        LdapDirectory.Page page =
            directory.searchPage(
                settings.baseDn(), settings.scope(), filter, size, cookie, requested);
        cookie = page.cookie();
        List<ImportRow> rows = new ArrayList<>(page.entries().size());
        for (SearchResultEntry entry : page.entries()) {
          rows.add(row(++position, entry));
        }
        return rows;
      }
    };
  }

  /** A directory time for "now minus {@code margin}" (watermark of a full import). */
  public static String generalizedTime(Instant instant) {
    return StaticUtils.encodeGeneralizedTime(Date.from(instant));
  }

  /**
   * The changes OpenLDAP's accesslog holds after {@code after} (its {@code reqStart}), up to and
   * including {@code upTo} when given; successful writes below the base DN only.
   */
  public AccessLogChanges accessLogChanges(String after, String upTo) {
    LdapSettings settings = directory.settings();
    List<Filter> parts = new ArrayList<>();
    parts.add(Filter.createEqualityFilter("objectClass", "auditWriteObject"));
    parts.add(Filter.createEqualityFilter("reqResult", "0"));
    if (after != null) {
      parts.add(Filter.createGreaterOrEqualFilter("reqStart", after));
      parts.add(Filter.createNOTFilter(Filter.createEqualityFilter("reqStart", after)));
    }
    if (upTo != null) {
      parts.add(Filter.createLessOrEqualFilter("reqStart", upTo));
    }
    Filter filter = Filter.createANDFilter(parts);
    List<SearchResultEntry> log = new ArrayList<>();
    byte[] cookie = null;
    do {
      LdapDirectory.Page page =
          directory.searchPage(
              settings.accessLogBase(),
              SearchScope.ONE,
              filter,
              1000,
              cookie,
              "reqStart",
              "reqType",
              "reqDN",
              "reqNewRDN",
              "reqNewSuperior",
              "reqOld");
      log.addAll(page.entries());
      cookie = page.cookie();
    } while (cookie != null);
    log.sort((a, b) -> a.getAttributeValue("reqStart").compareTo(b.getAttributeValue("reqStart")));
    // The last operation on an object decides what the delta reports for it.
    Map<String, AccessLogChanges.Change> byObject = new LinkedHashMap<>();
    String newest = null;
    for (SearchResultEntry entry : log) {
      newest = entry.getAttributeValue("reqStart");
      String dn = entry.getAttributeValue("reqDN");
      String type = entry.getAttributeValue("reqType");
      if (dn == null || type == null || !below(dn, settings.baseDn())) {
        continue;
      }
      switch (type) {
        case "delete" -> {
          String deletedAnchor = oldValue(entry, anchor);
          byObject.remove(key(dn));
          if (deletedAnchor != null) {
            byObject.put(
                "anchor:" + deletedAnchor, AccessLogChanges.Change.deleted(deletedAnchor, dn));
          }
        }
        case "modrdn" -> {
          String rdn = entry.getAttributeValue("reqNewRDN");
          String superior = entry.getAttributeValue("reqNewSuperior");
          String parent = superior != null ? superior : parentOf(dn);
          String newDn = parent == null || parent.isEmpty() ? rdn : rdn + "," + parent;
          byObject.remove(key(dn));
          byObject.put(key(newDn), AccessLogChanges.Change.changed(newDn));
        }
        case "add", "modify" -> byObject.put(key(dn), AccessLogChanges.Change.changed(dn));
        default -> {}
      }
    }
    return new AccessLogChanges(new ArrayList<>(byObject.values()), newest);
  }

  /** The objects of accesslog changes: changed ones read anew, deleted ones by their anchor. */
  public ObjectSource of(AccessLogChanges changes) {
    String[] requested = requested();
    Deque<AccessLogChanges.Change> queue = new ArrayDeque<>(changes.changes());
    return new Buffered() {
      @Override
      boolean more() {
        return !queue.isEmpty();
      }

      @Override
      List<ImportRow> fetch(int size) {
        // The changed entries of up to a page of changes, read pipelined.
        List<AccessLogChanges.Change> page = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        while (page.size() < size && !queue.isEmpty()) {
          AccessLogChanges.Change change = queue.poll();
          page.add(change);
          if (change.deletedAnchor() == null) {
            changed.add(change.dn());
          }
        }
        List<SearchResultEntry> read =
            directory.readAllMatching(changed, filter(), READ_WINDOW, requested);
        List<ImportRow> rows = new ArrayList<>();
        int next = 0;
        for (AccessLogChanges.Change change : page) {
          long at = ++position;
          if (change.deletedAnchor() != null) {
            rows.add(ImportRow.deletion(at, change.dn(), change.deletedAnchor()));
            continue;
          }
          SearchResultEntry entry = read.get(next++);
          // Gone again since (added and deleted in one window) or out of the filter's reach.
          if (entry != null) {
            rows.add(row(at, entry));
          }
        }
        return rows;
      }
    };
  }

  private ImportRow row(long position, Entry entry) {
    String dn = entry.getDN();
    String anchorValue = entry.getAttributeValue(anchor);
    if (anchorValue == null || anchorValue.isEmpty()) {
      return new ImportRow(position, dn, null, null, "MissingAnchor", dn + " has no " + anchor, dn);
    }
    Map<String, String> values = new HashMap<>(attributes.size() * 2);
    for (String attribute : attributes) {
      List<String> all = LdapDirectory.values(entry, attribute);
      values.put(
          attribute,
          all.isEmpty()
              ? ""
              : multiValued.contains(attribute) || all.size() > 1
                  ? MultiValue.join(all)
                  : all.get(0));
    }
    return new ImportRow(position, anchorValue, anchorValue, values, null, null, dn);
  }

  /** A value of {@code attribute} that an accesslog entry recorded before the change (reqOld). */
  private static String oldValue(Entry logEntry, String attribute) {
    String prefix = attribute.toLowerCase(java.util.Locale.ROOT) + ":";
    for (String old : LdapDirectory.values(logEntry, "reqOld")) {
      if (old.toLowerCase(java.util.Locale.ROOT).startsWith(prefix)) {
        return old.substring(prefix.length()).trim();
      }
    }
    return null;
  }

  private static boolean below(String dn, String base) {
    try {
      return new com.unboundid.ldap.sdk.DN(dn).isDescendantOf(base, true);
    } catch (LDAPException e) {
      return false;
    }
  }

  private static String parentOf(String dn) {
    try {
      com.unboundid.ldap.sdk.DN parent = new com.unboundid.ldap.sdk.DN(dn).getParent();
      return parent == null ? null : parent.toString();
    } catch (LDAPException e) {
      return null;
    }
  }

  private static String key(String dn) {
    try {
      return "dn:" + new com.unboundid.ldap.sdk.DN(dn).toNormalizedString();
    } catch (LDAPException e) {
      return "dn:" + dn.toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Pages from a fetch of any size, so a resumed import can skip exactly what it committed. */
  private abstract static class Buffered implements ObjectSource {
    long position;
    private final Deque<ImportRow> buffer = new ArrayDeque<>();

    abstract List<ImportRow> fetch(int size);

    abstract boolean more();

    @Override
    public void skip(long count) {
      while (true) {
        while (!buffer.isEmpty() && buffer.peek().position() <= count) {
          buffer.poll();
        }
        if (!buffer.isEmpty() || !more()) {
          return;
        }
        buffer.addAll(fetch(1000));
      }
    }

    @Override
    public List<ImportRow> nextPage(int size) {
      while (buffer.size() < size && more()) {
        buffer.addAll(fetch(size - buffer.size()));
      }
      List<ImportRow> page = new ArrayList<>(Math.min(size, buffer.size()));
      while (page.size() < size && !buffer.isEmpty()) {
        page.add(buffer.poll());
      }
      return page;
    }

    @Override
    public void close() {}
  }
}
