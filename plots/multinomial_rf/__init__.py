"""multinomial-rf: one module per figure and table (python3 -m plots multinomial-rf EXPERIMENT)."""
