"""The BlogNomic test suite."""
