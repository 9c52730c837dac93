-- The partitions of the synchronisation page a run announced and has not finished: one row per CSO,
-- written with the checkpoint that moves past the page, deleted by the commit of the CSO's
-- partition. After a crash, the partitions whose rows remain are the ones redone.
create table sync_plan (
  run_record_id  varchar(36) not null references run_record (id) on delete cascade,
  cso_id         bigint      not null,
  partition_no   integer     not null,
  primary key (run_record_id, cso_id)
);
