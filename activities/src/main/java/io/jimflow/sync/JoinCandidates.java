package io.jimflow.sync;

import java.util.List;

/** The caller's answers to the join questions of one page, looked up before deciding. */
public interface JoinCandidates {

  /** MVOs of the type whose attribute has this value. */
  List<MvoState> find(String mvoType, String mvoAttribute, String value);

  /** Whether a CSO of the system is already joined to the MVO. */
  boolean hasConnectorIn(String mvoId, String connectedSystem);
}
