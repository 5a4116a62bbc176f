"""Tests of veriscale.languages (a package: test modules get unique dotted names)."""
