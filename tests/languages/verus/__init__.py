"""Tests of veriscale.languages.verus (a package: test modules get unique dotted names)."""
