"""Tests of veriscale.reduce (a package: test modules get unique dotted names)."""
