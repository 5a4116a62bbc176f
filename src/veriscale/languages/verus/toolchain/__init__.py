"""The real Verus verifier, when one is installed: output parsing, batching, the sandboxed run.

* ``messages`` reads Verus's text output (rustc-style diagnostics and the
  ``verification results::`` summary line);
* ``batch`` verifies several programs with one Verus invocation (one crate,
  one module file per program) and maps each error back to its program;
* ``runner`` runs ``verus --no-cheating`` in the sandbox.
"""
