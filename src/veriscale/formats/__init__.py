"""Readers and writers of benchmark formats on disk (Verina task directories, …)."""
