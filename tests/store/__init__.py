"""Tests of the persistence layer (westeros.store)."""
