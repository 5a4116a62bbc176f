"""``veriscale report``: a static HTML site of evaluation results and suites (docs/report.md)."""
