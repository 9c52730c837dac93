-- The execution history (JIM's ScheduleExecution rows and one row per task): every schedule
-- execution and each of its steps, written by the execution itself, so that the audit trail
-- outlives Temporal's retention of the execution's history.

create table execution_record (
  id             varchar(300) primary key,
  run_id         varchar(64),
  schedule_id    varchar(200),
  schedule_name  varchar(300),
  trigger_kind   varchar(20),
  initiator_type varchar(20),
  initiator_id   varchar(200),
  initiator_name varchar(200),
  status         varchar(30)  not null,
  message        varchar(4000),
  step_groups    integer      not null,
  steps          integer      not null,
  revision       integer      not null,
  started_at     timestamp with time zone not null,
  ended_at       timestamp with time zone,
  updated_at     timestamp with time zone not null
);
create index execution_record_started on execution_record (started_at);
create index execution_record_status on execution_record (status, started_at);
create index execution_record_ended on execution_record (ended_at);

create table execution_step (
  execution_id  varchar(300) not null references execution_record (id) on delete cascade,
  position      integer      not null,
  step_index    integer      not null,
  name          varchar(300) not null,
  step_type     varchar(20)  not null,
  target        varchar(500),
  status        varchar(30)  not null,
  attempts      integer      not null,
  started_at    timestamp with time zone,
  ended_at      timestamp with time zone,
  message       varchar(4000),
  run_record_id varchar(36),
  primary key (execution_id, position)
);
