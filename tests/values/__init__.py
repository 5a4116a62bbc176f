"""Tests of veriscale.values (a package: test modules get unique dotted names)."""
