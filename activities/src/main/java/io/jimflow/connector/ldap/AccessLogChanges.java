package io.jimflow.connector.ldap;

import java.util.List;

/**
 * What OpenLDAP's accesslog says changed below a base DN, one change per object (its last), and the
 * newest {@code reqStart} read: the next delta import's watermark.
 */
public record AccessLogChanges(List<Change> changes, String newestReqStart) {

  /**
   * @param dn the object's DN (after a rename, the new one)
   * @param deletedAnchor the anchor of a deleted object, from the log's reqOld; null otherwise
   */
  public record Change(String dn, String deletedAnchor) {
    static Change changed(String dn) {
      return new Change(dn, null);
    }

    static Change deleted(String anchor, String dn) {
      return new Change(dn, anchor);
    }
  }
}
