"""Joins two migrations made side by side: names unique in any case, and the column an update is about."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('gndt', '0003_names_unique_in_any_case'),
        ('gndt', '0003_update_column'),
    ]

    operations = [
    ]
