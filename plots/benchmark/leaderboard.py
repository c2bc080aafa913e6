"""The leaderboard: ranks, critical-difference diagrams, metric-vs-epsilon panels, wins/ties/losses
against the best non-private forest, and fit times, from the results of configs/benchmark/*.yaml.

usage: python3 -m plots.benchmark.leaderboard [--publish DIR [--readme README.md] [--partial [--subset TEXT]]] RESULTS_DIR [RESULTS_DIR ...]

--publish copies the light outputs (the report, headline figure, ranks, summary, W/T/L, fit times,
completeness) to DIR, e.g. results/reference/benchmark/leaderboard (tracked), and --readme rewrites the
README's block between <!-- leaderboard:begin --> and <!-- leaderboard:end --> from that copy (with the finding and
its caveats, generated). A run with incomplete blocks is not published unless --partial, which marks it;
--partial --subset TEXT also marks a run of part of the protocol (some configs or epsilons) whose blocks are complete.

Each RESULTS_DIR holds a results.csv from `dpforest run` (and, optionally, cells/*.error files of failed
cells). Outputs go to <parent of the first RESULTS_DIR>/leaderboard/ (e.g. results/benchmark/leaderboard/):
leaderboard.md, headline.png/.svg, cd-<task>-<scope>-eps<e>.png/.svg, panels-<task>.png/.svg,
wtl.md/.csv (per dataset: wtl-datasets.csv), fit-time.md/.csv/.png, ranks.csv, completeness.csv,
incomplete.md and summary.csv (mean, sd, n per task, dataset, label and epsilon); the decision tables
(decision.py): tracks.csv, accuracy.csv, regimes.csv, growth.csv; headline-private-selection.png and
cd-<task>-<scope>-private-selection-eps<e>.png for the private-selection track.

Groups come from the label's last bracket: "[DP]" or "[DP, ...]" are private and ranked; "[published]" are
published mechanisms that are not DP (shown dashed and marked, never ranked); "[non-private]" are the reference
forests; "[oracle, ...]" is the oracle tuning track (not DP, never ranked). Among the DP labels, "[DP, private
selection]" is the private-selection track, ranked apart from the paper-settings track (data.track_of). Ranks (1 = best; accuracy higher-better, mse lower-better; ties averaged) are taken over the
per-dataset means, per epsilon, on complete blocks only: an algorithm enters a ranking only if every dataset
of the scope has all its expected (repetition, fold) results; a dataset on which no DP algorithm is complete
is left out of the scope instead (and named in the report). Expected = within each RESULTS_DIR, every
(label, dataset, epsilon) seen in its rows or its failed cells, times the (repetition, fold) pairs seen there.
Scopes: "all" (every dataset of the task outside the large tier), for classification "binary" (the datasets whose
rows report an AUC, i.e. two classes; binary-only algorithms enter here), and "large" (the datasets of results
directories named large*: the large tier, ranked apart).

Modules: data (reading), stats (ranks, Friedman, Nemenyi, W/T/L, completeness), figures, tables (the text
outputs and this report), decision (the decision tables), publish (the published copy and the README block)."""
import argparse
import os
import sys

from plots.benchmark import decision, figures, publish, stats, tables
from plots.benchmark.data import read_dirs, tasks


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m plots.benchmark.leaderboard", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results_dirs", nargs="+", metavar="RESULTS_DIR", help="a results folder of configs/benchmark")
    ap.add_argument("--publish", metavar="DIR", help="copy the light outputs to DIR (tracked in git)")
    ap.add_argument("--readme", metavar="README.md", help="with --publish: rewrite the README's leaderboard block")
    ap.add_argument("--partial", action="store_true",
                    help="with --publish: publish an incomplete run, marked as partial (refused otherwise)")
    ap.add_argument("--subset", metavar="TEXT",
                    help="with --partial: the part of the protocol the run covers (e.g. \"binary scope, epsilon 1\"); "
                         "marks the copy partial even where every block of that part is complete")
    a = ap.parse_args(argv)
    if a.readme and not a.publish:
        ap.error("--readme needs --publish (the block is made from the published copy)")
    if a.subset and not a.partial:
        ap.error("--subset needs --partial (a subset of the protocol is a partial run)")
    dirs = [d.rstrip("/") for d in a.results_dirs]
    data = read_dirs(dirs)
    if not data.rows:
        sys.exit("no result rows in " + ", ".join(dirs) + " (only failed cells)")
    outdir = os.path.join(os.path.dirname(os.path.abspath(dirs[0])), "leaderboard")
    os.makedirs(outdir, exist_ok=True)

    comp = stats.completeness(data)
    tables.write_completeness(outdir, comp)
    tables.write_summary(outdir, data)
    ranks = stats.rankings(data)
    tables.write_ranks(outdir, ranks)
    figs = {"cd": {(e["task"], e["scope"], e["eps"]): figures.cd_diagram(e, outdir) for e in ranks
                   if len(e["labels"]) >= 2 and e["mean_rank"]}}
    styles = figures.label_styles({k[2] for k in data.expected})
    figs["panels"] = {t: figures.panels(data, t, outdir, styles) for t in tasks(data)}
    figs["headline"] = figures.headline_figure(ranks, outdir, styles)
    wtl_md = tables.write_wtl(outdir, data, stats.wins_ties_losses(data))
    fit_rows = stats.fit_times(data)
    time_md = tables.write_fit_time(outdir, fit_rows)
    figs["fit_time"] = figures.fit_time(fit_rows, outdir)
    md = tables.write_report(outdir, dirs, data, comp, ranks, figs, wtl_md, time_md)
    # The private-selection track, ranked on its own (the oracle never is), and the decision tables.
    sel = stats.rankings(data, "private-selection")
    extra = []
    if sel:
        for e in sel:
            if len(e["labels"]) >= 2 and e["mean_rank"]:
                figures.cd_diagram(e, outdir)
        if figures.headline_figure(sel, outdir, styles, stem="headline-private-selection",
                                   what=f"DP forests tuned by private selection ({publish.SELECTION_PRIVACY})"):
            extra += ["## Private-selection track", "",
                      "![private-selection track: mean rank against epsilon](headline-private-selection.png)", ""]
    extra += decision.write(outdir, data)
    with open(os.path.join(outdir, "leaderboard.md"), "a") as f:
        f.write("\n" + "\n".join(extra))

    print(f"wrote {os.path.join(outdir, 'leaderboard.md')}")
    done = sum(1 for r in comp if r["status"] == "complete")
    print(f"completeness: {done}/{len(comp)} blocks complete, {sum(r['present_folds'] for r in comp)}/"
          f"{sum(r['expected_folds'] for r in comp)} folds present")
    for line in md[md.index("## Headline") + 2:]:
        if not line.startswith("- "):
            break
        print(line)
    if a.publish:
        publish.publish(outdir, a.publish, a.readme, a.partial, a.subset)


if __name__ == "__main__":
    main()
