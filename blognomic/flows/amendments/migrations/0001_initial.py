"""Applied amendments move here from the site's root, keeping their table."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('blognomic', '0012_demo_clock'),
        ('votes', '0011_post_hidden'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.CreateModel(
                    name='AmendmentApplication',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('digest', models.CharField(help_text='The digest of the operations when it was enacted.', max_length=64)),
                        ('applied', models.BooleanField(help_text='False when the admin enacted the matter without applying it.')),
                        ('note', models.TextField(blank=True, help_text='Why it was not applied: the conflict the admin saw.')),
                        ('at', models.DateTimeField()),
                        ('revisions', models.JSONField(blank=True, default=list, help_text='Wiki revisions it wrote, by id.')),
                        ('gndt', models.JSONField(blank=True, default=dict, help_text='The GNDT update and the columns and rows it added or removed, by id.')),
                        ('parameters', models.JSONField(blank=True, default=list, help_text='Core-rule parameters it changed: parameter, old and new value.')),
                        ('renames', models.JSONField(blank=True, default=list, help_text='Players it renamed: old and new name.')),
                        ('descriptions', models.JSONField(blank=True, default=list, help_text='What it did, in plain words.')),
                        ('reverted_at', models.DateTimeField(blank=True, null=True)),
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('post', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='amendment_applications', to='votes.post')),
                        ('reverted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'blognomic_amendmentapplication',
                        'ordering': ['at', 'pk'],
                    },
                ),
            ],
        ),
    ]
