"""matrix-rf: one module per figure and table (python3 -m plots matrix-rf EXPERIMENT)."""
