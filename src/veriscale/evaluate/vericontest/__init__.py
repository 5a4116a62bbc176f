"""VeriContest scoring: its generations format, test cases, six tasks, and harness."""
