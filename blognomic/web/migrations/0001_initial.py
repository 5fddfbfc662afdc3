"""The page cache's versions move here from the site's root, keeping their tables."""

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
                    name='ContentVersion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('value', models.BigIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'blognomic_contentversion',
                    },
                ),
                migrations.CreateModel(
                    name='ReaderVersion',
                    fields=[
                        ('account_id', models.BigIntegerField(primary_key=True, serialize=False)),
                        ('value', models.BigIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'blognomic_readerversion',
                    },
                ),
            ],
        ),
    ]
