"""The paper's timing tables (seconds: Opti., Train., Pred.; None = not applicable), transcribed in
matrix-rf.md §5.4: Table 1 and, for Car, Appendix Table 2. One copy, read by plots/matrix_rf/table_1.py
and experiments/tools/bench_matrix_rf.py."""

TABLE1 = {
    ("adult-libsvm:a1a-test", "DP Train."): (255.7, 12.84, 30.09),
    ("adult-libsvm:a1a-test", "DP Pred."): (58.58, 12.88, 29.63),
    ("adult-libsvm:a1a-test", "Non-DP"): (None, 13.20, 29.24),
    ("heart:upload", "DP Train."): (0.60, 1.05, 0.52),
    ("heart:upload", "DP Pred."): (0.79, 0.82, 0.57),
    ("heart:upload", "Non-DP"): (None, 0.72, 0.36),
    ("mushroom:declared", "DP Train."): (16.24, 12.22, 10.17),
    ("mushroom:declared", "DP Pred."): (24.68, 11.97, 10.07),
    ("mushroom:declared", "Non-DP"): (None, 13.09, 9.82),
}

APP_TABLE2_CAR = {
    ("car", "DP Train. q1"): (322.2, 15.12, 2.40),
    ("car", "DP Train. q2"): (84.97, 14.96, 2.54),
    ("car", "DP Pred. q1"): (336.6, 15.20, 2.53),
    ("car", "DP Pred. q2"): (19.93, 14.83, 2.63),
    ("car", "Non-DP q1"): (None, 14.97, 2.42),
}
