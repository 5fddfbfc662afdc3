"""The heartbeat, failed jobs and the demo's clock move here from the site's root, keeping their tables."""

import datetime
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('blognomic', '0012_demo_clock'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.CreateModel(
                    name='DemoClock',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('ahead', models.DurationField(default=datetime.timedelta(0), help_text='How far ahead of the real clock the demo runs.')),
                    ],
                    options={
                        'db_table': 'blognomic_democlock',
                    },
                ),
                migrations.CreateModel(
                    name='Heartbeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, unique=True)),
                        ('last_run_at', models.DateTimeField()),
                        ('runs', models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'blognomic_heartbeat',
                    },
                ),
                migrations.CreateModel(
                    name='JobFailure',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('task', models.CharField(help_text="The job's task name.", max_length=200)),
                        ('task_id', models.CharField(blank=True, help_text="Celery's id of the run, as in the log.", max_length=255)),
                        ('at', models.DateTimeField(db_index=True)),
                        ('error', models.CharField(help_text='What it raised.', max_length=1000)),
                    ],
                    options={
                        'db_table': 'blognomic_jobfailure',
                        'ordering': ['-at', '-pk'],
                    },
                ),
            ],
        ),
    ]
