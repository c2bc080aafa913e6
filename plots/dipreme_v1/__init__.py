"""dipreme-v1 (Consul & Williamson, arXiv v1 "Differentially private median forests"): one module per figure
and table (python3 -m plots dipreme-v1 EXPERIMENT)."""
