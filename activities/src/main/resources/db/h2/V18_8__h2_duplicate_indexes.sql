-- H2 only (PostgreSQL creates no index for a foreign key). H2 gives each foreign key an index of
-- its own when the table is created; the named indexes on the same columns, created after the
-- tables, were second copies of those, written with every row. The foreign keys' indexes serve
-- the same lookups (docs/benchmarks.md, "Hot queries: EXPLAIN").
drop index cso_mvo;
drop index mvo_key_mvo;
drop index pending_export_cso;
