-- A delta import's watermark (e.g. the directory's accesslog reqStart it read up to). The next
-- delta import starts from the watermark of the newest run record that completed.
alter table run_record add column watermark varchar(100);
