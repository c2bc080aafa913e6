"""Python tools beside the C++ harness, run from the repository root as `python3 -m experiments.tools.<name>`:
bench (make bench, with its bench_<name> modules; BENCH.md), calibrate_cost (make calibrate), cost_check,
eta_check and shard_balance (checks of the cost model and the shard plan against a finished run)."""
