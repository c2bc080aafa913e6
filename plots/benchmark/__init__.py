"""The leaderboard of configs/benchmark (python3 -m plots.benchmark.leaderboard): data, stats, figures, tables, publish."""
