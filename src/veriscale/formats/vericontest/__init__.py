"""vericontest."""
