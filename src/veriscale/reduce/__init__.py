"""Reduction: compact suites that keep the discriminating power of the expanded ones."""
