"""gunicorn's settings for the site: ``gunicorn -c deploy/gunicorn.conf.py blognomic.wsgi``.

Threaded workers, so a request that waits (a client slow to send its body or to read the page, a slow query)
holds one thread and not a whole worker; the rest of the worker's threads and the other workers serve
everyone else. The proxy in front (``deploy/Caddyfile``) reads each request whole before passing it on and
drops clients that dawdle, so slow clients reach gunicorn as fast ones. The app is safe under threads:
``tests/test_http_races.py`` runs it so.

``WEB_CONCURRENCY`` (workers, 3 by default) and ``GUNICORN_THREADS`` (threads per worker, 8) size it; each
thread may hold a database connection, so PostgreSQL's ``max_connections`` must exceed their product plus the
Celery processes. ``GUNICORN_BIND`` is where it listens (``0.0.0.0:8000``; behind a proxy on the same
machine, ``127.0.0.1:8000``).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# A worker that stops answering its master this long is restarted; no page takes a fraction of it.
timeout = 30
graceful_timeout = 30
# Idle keep-alive connections (the proxy's) wait in the worker's selector, not in a thread.
keepalive = 5
# Requests' lines and headers beyond these are refused before the app sees them.
limit_request_line = 8190
limit_request_fields = 100
