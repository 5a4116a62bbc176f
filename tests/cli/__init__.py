"""Tests of veriscale.cli (a package: test modules get unique dotted names)."""
