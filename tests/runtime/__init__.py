"""Tests of veriscale.runtime (a package: test modules get unique dotted names)."""
