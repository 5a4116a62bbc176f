"""Builders: the expanded ("Plus") and reduced ("Lite") suites as Verina-format datasets."""
