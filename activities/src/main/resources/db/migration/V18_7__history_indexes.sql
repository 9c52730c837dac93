-- Indexes of the data plane's hot paths (docs/benchmarks.md, "Hot queries: EXPLAIN"). Every index
-- entry is written with its row, so an index stays only where a query needs it.

-- History retention purges the oldest entries in id order (ids grow with time) and stops at the
-- first entry inside the retention period, so no index on changed_at: one index entry fewer for
-- every history entry written.
drop index cso_change_changed_at;
drop index mvo_change_changed_at;
