"""Keeping the site running: logs an operator can follow, the health check, the embedded beat, failed jobs and what
needs an admin's attention, backups."""
