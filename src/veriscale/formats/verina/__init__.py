"""verina."""
