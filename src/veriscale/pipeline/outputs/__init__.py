"""The output-expansion stage: flawed specifications, adversarial implementations, unexpected outputs."""
