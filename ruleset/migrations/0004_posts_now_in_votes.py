"""Revisions' post now names votes.Post (no database change); a help text catches up."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ruleset', '0003_alter_page_kind'),
        ('votes', '0002_posts_and_comments_move_here'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.AlterField(
                    model_name='revision',
                    name='post',
                    field=models.ForeignKey(blank=True, help_text='The post that caused this revision, for example the enacted proposal.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='revisions', to='votes.post'),
                ),
            ],
        ),
        migrations.AlterField(
            model_name='rulechange',
            name='number',
            field=models.CharField(help_text="The rule's number in this revision (or its last).", max_length=40),
        ),
    ]
