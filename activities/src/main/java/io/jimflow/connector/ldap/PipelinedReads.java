package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads of many entries by DN on one connection without waiting for each answer (see {@link
 * LdapDirectory#readAllMatching}).
 */
final class PipelinedReads {

  private PipelinedReads() {}

  /**
   * The entries at these DNs that match {@code filter}, at most {@code window} reads in flight: in
   * the order of {@code dns}, null where there is none or it does not match.
   */
  static List<SearchResultEntry> read(
      LDAPConnection connection,
      String url,
      Duration operationTimeout,
      List<String> dns,
      Filter filter,
      int window,
      String... attributes) {
    Semaphore inFlight = new Semaphore(window);
    List<CompletableFuture<SearchResultEntry>> reads = new ArrayList<>();
    long wait = operationTimeout.toMillis() + 30_000;
    for (String dn : dns) {
      CompletableFuture<SearchResultEntry> read = new CompletableFuture<>();
      List<SearchResultEntry> found = new ArrayList<>(1);
      AsyncSearchResultListener listener =
          new AsyncSearchResultListener() {
            @Override
            public void searchEntryReturned(SearchResultEntry entry) {
              found.add(entry);
            }

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {}

            @Override
            public void searchResultReceived(AsyncRequestID id, SearchResult result) {
              inFlight.release();
              ResultCode code = result.getResultCode();
              if (code == ResultCode.SUCCESS || code == ResultCode.NO_SUCH_OBJECT) {
                read.complete(found.isEmpty() ? null : found.get(0));
              } else {
                read.completeExceptionally(
                    LdapResults.failure(url, new LDAPException(result), "reading " + dn));
              }
            }
          };
      try {
        if (!inFlight.tryAcquire(wait, TimeUnit.MILLISECONDS)) {
          throw new LdapUnavailableException(
              "the directory " + url + " left reads unanswered for " + wait + " ms", null);
        }
        connection.asyncSearch(
            new SearchRequest(listener, dn, SearchScope.BASE, filter, attributes));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LdapUnavailableException("interrupted while reading from " + url, null);
      } catch (LDAPException e) {
        throw LdapResults.failure(url, e, "reading " + dn);
      }
      reads.add(read);
    }
    List<SearchResultEntry> entries = new ArrayList<>();
    for (CompletableFuture<SearchResultEntry> read : reads) {
      try {
        entries.add(read.get(wait, TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        throw (RuntimeException) e.getCause();
      } catch (TimeoutException e) {
        throw new LdapUnavailableException(
            "the directory " + url + " left reads unanswered for " + wait + " ms", null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LdapUnavailableException("interrupted while reading from " + url, null);
      }
    }
    return entries;
  }
}
