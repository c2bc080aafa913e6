"""The reference snapshot (python3 -m plots.reference.snapshot) and its verify (python3 -m plots.reference.verify)."""
