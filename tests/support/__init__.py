"""Test helpers shared by the test folders."""
