"""Many machines: `diff` (two Snapshots) and `fleet` (a folder or a Ray cluster of them).

A Snapshot is portable, so comparing machines is comparing Snapshots (DESIGN §12). Each
Snapshot is reduced to its *profile* (:mod:`.profile`: the facts that can explain a failure,
normalised so that two copies of one environment at different paths are alike); ``diff``
weighs what differs between two profiles with the table in ``conditions/differences.toml``;
``fleet`` groups machines by identical profiles and diffs each minority group against the
majority.
"""
