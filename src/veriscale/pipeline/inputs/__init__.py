"""The input-expansion stage: seeds → type-aware mutants → precondition classification → outputs."""
