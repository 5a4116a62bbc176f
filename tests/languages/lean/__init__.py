"""Tests of veriscale.languages.lean (a package: test modules get unique dotted names)."""
