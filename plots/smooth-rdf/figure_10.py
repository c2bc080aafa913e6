"""smooth-rdf Figure 10: Adult, accuracy vs eps: private (ours), non-private (ours), Breiman RF.
Usage: figure_10.py RESULT_DIR"""
import sys

import srdf_common as S  # noqa: F401  (sets the path for common)
import common

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-10"
rows = common.load_rows(d)
data = common.series(rows, "accuracy", "epsilon")
eps = sorted({p[0] for pts in data.values() for p in pts if p[0] is not None})
fig, ax = common.plt.subplots(figsize=(7, 4.5))
styles = {"Private (ours)": {"marker": "o"}, "Non-private (ours)": {"linestyle": "--"},
          "Breiman RF": {"linestyle": ":", "color": "black"}}
common.plot_vs_x(ax, data, ["Private (ours)", "Non-private (ours)", "Breiman RF"], styles, eps)
ax.set_xlabel("epsilon")
ax.set_ylabel("accuracy")
ax.grid(True, alpha=0.3)
ax.legend()
ax.set_title("Figure 10: Adult, accuracy vs epsilon")
common.save(fig, d, "figure-10")
