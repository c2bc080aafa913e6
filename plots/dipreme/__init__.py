"""dipreme (Consul & Williamson, "Balance is key"): one module per figure and table
(python3 -m plots dipreme EXPERIMENT)."""
