"""dipreme Banknote accuracy-vs-epsilon figures (Figure 2 partitioned, Figure 6 not partitioned).

Panel (a) has the paper's series: RF, ERT, Median (non-private, flat), DiPriMe, DiPriMeExp,
DiPriMeFlip, DP-ERT scored as the paper did (1 - mean|y - p|, quirk l1_error), DP-RF and DP-DF as
the authors ran it (epsilon/2, root noisy majority).
Panel (b) shows fidelity: DiPriMe with the authors' split budget (the published numbers), DP-ERT
scored by 0/1 accuracy, the correct DP-DF, and the strict (repaired, epsilon-DP) variants.
"""
from plots import common

paper = ["RF", "ERT", "Median", "DiPriMe", "DiPriMeExp", "DiPriMeFlip", "DP-ERT", "DP-RF", "DP-DF (as run)"]
fidelity = ["DiPriMe", "DiPriMe (as coded)", "DiPriMe (strict)", "DiPriMeExp (strict)", "DiPriMeFlip (strict)",
            "DP-ERT", "DP-ERT (0/1 error)", "DP-DF", "DP-DF (strict)"]
styles = {
    "RF": {"color": "black", "linestyle": "--"},
    "ERT": {"color": "grey", "linestyle": "--"},
    "Median": {"color": "tab:brown", "linestyle": ":"},
    "DiPriMe": {"color": "tab:blue", "marker": "o"},
    "DiPriMeExp": {"color": "tab:orange", "marker": "s"},
    "DiPriMeFlip": {"color": "tab:green", "marker": "^"},
    "DP-ERT": {"color": "tab:red", "marker": "v"},
    "DiPriMe (as coded)": {"color": "tab:cyan", "marker": "o", "linestyle": "--"},
    "DiPriMe (strict)": {"color": "tab:blue", "marker": "x", "linestyle": ":"},
    "DiPriMeExp (strict)": {"color": "tab:orange", "marker": "x", "linestyle": ":"},
    "DiPriMeFlip (strict)": {"color": "tab:green", "marker": "x", "linestyle": ":"},
    "DP-ERT (0/1 error)": {"color": "tab:red", "marker": "x", "linestyle": ":"},
    "DP-RF": {"color": "tab:purple", "marker": "D"},
    "DP-DF (as run)": {"color": "tab:pink", "marker": "P"},
    "DP-DF": {"color": "tab:pink", "marker": "P", "linestyle": "--"},
    "DP-DF (strict)": {"color": "tab:pink", "marker": "x", "linestyle": ":"},
}


def draw(result_dir, name, title):
    """Reads RESULT_DIR/results.csv and writes NAME.pdf/.png there; TITLE gets the repetition count."""
    common.two_panels_vs_epsilon(
        result_dir, name,
        [(paper, "(a) as in the paper (DP-ERT: 1 - L1 error)", None),
         (fidelity, "(b) authors' code and strict (epsilon-DP) variants", None)],
        styles, f"{title} ({{n}} repetitions)")
