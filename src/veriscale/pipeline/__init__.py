"""Pipeline stages over a run directory (input expansion first; later stages reuse the machinery).

Modules: ``config`` (hyperparameters, saved in the run directory), ``rundir``
(layout, SQLite ledger, atomic writes, resume), ``executor`` (serial, local
process pool, optional Ray), ``summary`` (rich tables), and the ``inputs``
stage package (seeds, mutation, classification, expected outputs).

This package may import ``values``, ``benchmarks``, ``engines`` and ``llm``.
"""
