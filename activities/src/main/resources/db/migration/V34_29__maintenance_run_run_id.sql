-- The run of the workflow that opened a maintenance run: a connected system's clear or delete
-- started again reuses its workflow id, and the sweeper must not take the new run for the old one.
-- Null in records written before.
alter table maintenance_run add column run_id varchar(64);
