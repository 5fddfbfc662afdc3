"""The Celery app: the broker, the beat schedule and eager mode all come from Django settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blognomic.settings")

app = Celery("blognomic")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
