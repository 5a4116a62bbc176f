"""Tests of veriscale.formats (a package: test modules get unique dotted names)."""
