# The production image: gunicorn serves the site, WhiteNoise its static files; the same image runs Celery.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# pg_dump for the daily backup (blognomic/running/backups.py), the same major version as docker-compose's PostgreSQL.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY blognomic blognomic
COPY votes votes
COPY gndt gndt
COPY ruleset ruleset
COPY dynasties dynasties
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=0 SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput
RUN useradd --create-home blognomic && mkdir /backups && chown blognomic /backups
USER blognomic
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "blognomic.wsgi"]
