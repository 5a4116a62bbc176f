"""Scoring: ground-truth checks of engines, and (later) SpecGen/CodeGen/ProofGen evaluation."""
