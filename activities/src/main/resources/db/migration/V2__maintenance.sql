-- Maintenance: run records of housekeeping, history retention and connected-system tasks; the
-- operation that holds a connected system; who initiated an MVO's pending deletion.

create table maintenance_run (
  id                  varchar(36)  primary key,
  kind                varchar(40)  not null,
  status              varchar(30)  not null,
  message             varchar(4000),
  connected_system_id varchar(100),
  initiator_type      varchar(20),
  initiator_id        varchar(200),
  initiator_name      varchar(200),
  workflow_id         varchar(300),
  totals              varchar      not null,
  created_at          timestamp with time zone not null,
  updated_at          timestamp with time zone not null,
  ended_at            timestamp with time zone
);
create index maintenance_run_created on maintenance_run (created_at);

-- A row while a connected system is being cleared or deleted; no row means Active. Run profiles of
-- a system with a row refuse to run.
create table connected_system_operation (
  connected_system_id varchar(100) primary key,
  operation           varchar(20)  not null,
  workflow_id         varchar(300) not null,
  started_at          timestamp with time zone not null
);

-- Who made an MVO eligible for deletion, valid while its deletion date is still eligible_at; the
-- change history of its deletion names them.
create table mvo_deletion_initiator (
  mvo_id         varchar(36)  primary key references mvo (id) on delete cascade,
  eligible_at    timestamp with time zone not null,
  initiator_type varchar(20),
  initiator_id   varchar(200),
  initiator_name varchar(200),
  reason         varchar(500)
);

alter table mvo_change add column initiator_type varchar(20);
alter table mvo_change add column initiator_id varchar(200);
alter table mvo_change add column initiator_name varchar(200);

create index run_record_ended on run_record (ended_at);
create index cso_change_system on cso_change (connected_system_id);
