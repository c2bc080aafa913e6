"""smooth-rdf (Fletcher & Islam 2017): one module per figure and table (python3 -m plots smooth-rdf EXPERIMENT)."""
