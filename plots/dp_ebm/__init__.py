"""dp-ebm: accuracy and AUC vs epsilon on adult (python3 -m plots dp-ebm figure-accuracy-vs-epsilon)."""
