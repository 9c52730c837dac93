-- Since when a run record's run waits for a person's approval (its step is AwaitingApproval: the run
-- crossed a threshold and sent or marked nothing); null once decided. Read for the metrics
-- jimflow_executions_awaiting_approval and jimflow_approvals_waiting_oldest_seconds.
alter table run_record add column awaiting_approval_since timestamp with time zone;
