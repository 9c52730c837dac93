-- Who cancelled a schedule execution (JIM's "Cancelled by user"), as the cancel request named them.
alter table execution_record add column cancelled_by_type varchar(20);
alter table execution_record add column cancelled_by_id varchar(200);
