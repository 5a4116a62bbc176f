"""Tests of veriscale.pipeline (a package: test modules get unique dotted names)."""
