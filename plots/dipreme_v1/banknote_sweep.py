"""Shared drawing of [v1] Figures 4 and 7: Banknote accuracy against ε (d_max = 5, N_T = 10, ρ = 0.5).
Panel (a): the paper's methods as the authors ran them (DP-ERT scored 1 - mean|y - p|, DP-DF the root's
noisy majority at ε/2); panel (b): DiPriMe's median variants, DP-ERT by 0/1 accuracy, the correct DP-DF."""
from plots import common

PAPER = ["RF", "ERT", "Median", "DiPriMe", "DP-ERT", "DP-DF (as run)"]
OTHER = ["DiPriMe", "DiPriMe (Lebesgue)", "DiPriMe (strict)", "DP-ERT (0/1 error)", "DP-DF"]
STYLES = {
    "RF": {"color": "black", "linestyle": "--"},
    "ERT": {"color": "grey", "linestyle": "--"},
    "Median": {"color": "tab:brown", "linestyle": ":"},
    "DiPriMe": {"color": "tab:blue", "marker": "o"},
    "DiPriMe (Lebesgue)": {"color": "tab:orange", "marker": "s", "linestyle": "--"},
    "DiPriMe (strict)": {"color": "tab:blue", "marker": "x", "linestyle": ":"},
    "DP-ERT": {"color": "tab:red", "marker": "v"},
    "DP-ERT (0/1 error)": {"color": "tab:red", "marker": "x", "linestyle": ":"},
    "DP-DF (as run)": {"color": "tab:pink", "marker": "P"},
    "DP-DF": {"color": "tab:pink", "marker": "P", "linestyle": "--"},
}


def draw(result_dir, stem, part_text):
    common.two_panels_vs_epsilon(
        result_dir, stem,
        [(PAPER, "(a) as in the paper (DP-ERT: 1 - L1 error; DP-DF as the authors ran it)", 9),
         (OTHER, "(b) median variants, DP-ERT 0/1 accuracy, correct DP-DF", 9)],
        STYLES, f"Banknote, d_max = 5, N_T = 10, ρ = 0.5, K = 5; DiPriMe {part_text}", xlabel="ε")
