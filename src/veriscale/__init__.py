"""veriscale: trustworthy test suites for verifiable code generation benchmarks."""

__version__ = "0.1.0"
