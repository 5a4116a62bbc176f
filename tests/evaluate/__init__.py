"""Tests of veriscale.evaluate (a package: test modules get unique dotted names)."""
