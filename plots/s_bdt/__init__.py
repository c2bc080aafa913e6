"""s-bdt: Figures 3b and 4b, Adult AUC against epsilon (python3 -m plots s-bdt figure-3b|figure-4b)."""
