"""Rust tooling for VeriContest: tokenizing, harness generation, compilation, execution, Verus erasure."""
