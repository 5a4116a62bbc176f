"""The veriscale test suite (a package so test modules in sub-folders get unique dotted names)."""
