"""The per-paper fidelity report (python3 -m plots.report.report): sources, figures, page."""
