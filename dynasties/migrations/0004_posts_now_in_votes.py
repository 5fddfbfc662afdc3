"""Foreign keys to posts now name votes.Post; the database is unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('dynasties', '0003_rule_changes'),
        ('votes', '0002_posts_and_comments_move_here'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.AlterField(
                    model_name='dynasty',
                    name='ascension_address',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='votes.post'),
                ),
                migrations.AlterField(
                    model_name='dynasty',
                    name='declaration',
                    field=models.ForeignKey(blank=True, help_text='The enacted Declaration of Victory that began this dynasty.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='votes.post'),
                ),
                migrations.AlterField(
                    model_name='rename',
                    name='proposal',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='votes.post'),
                ),
                migrations.AlterField(
                    model_name='rulechange',
                    name='proposal',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='votes.post'),
                ),
            ],
        ),
    ]
