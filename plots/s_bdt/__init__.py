"""s-bdt: Figures 3a-4b, Abalone MSE and Adult AUC against epsilon (python3 -m plots s-bdt figure-3b)."""
