"""Posts and comments now belong to the votes app (votes.0002 took them over, tables and all)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('blognomic', '0005_post_anonymous'),
        ('votes', '0002_posts_and_comments_move_here'),
        ('dynasties', '0004_posts_now_in_votes'),
        ('ruleset', '0004_posts_now_in_votes'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Comment'),
                migrations.DeleteModel(name='Post'),
            ],
        ),
    ]
