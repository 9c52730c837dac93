-- A system's Pending exports are read in pages in id order (the CSV export's pass over them and its
-- marking, the LDAP export): with the id in the index, each page reads its rows in order instead of
-- sorting every pending export of the system.
drop index pending_export_status;
create index pending_export_status on pending_export (connected_system_id, status, id);
