"""Engines: execute preconditions, implementations and postconditions of tasks."""
