"""Tests of veriscale.llm (a package: test modules get unique dotted names)."""
