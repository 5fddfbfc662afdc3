"""The BlogNomic project package and the blog app (posts, comments, the front page, archives)."""

from blognomic.celery import app as celery_app

__all__ = ["celery_app"]
