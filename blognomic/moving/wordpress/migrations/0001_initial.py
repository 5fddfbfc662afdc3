"""What a WordPress import remembers moves here from the site's root, keeping its table."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('blognomic', '0012_demo_clock'),
        ('votes', '0011_post_hidden'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.CreateModel(
                    name='WordPressItem',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('post', 'Post'), ('comment', 'Comment')], max_length=8)),
                        ('source_id', models.PositiveBigIntegerField(help_text='The wp:post_id or wp:comment_id in the export.')),
                        ('reply_to', models.PositiveBigIntegerField(blank=True, help_text='The wp:comment_id this comment replied to: comments here are not threaded, so it is kept here.', null=True)),
                        ('good_flavour', models.BooleanField(default=False, help_text='The comment was marked good flavour (comment meta good_flavour) on the blog.')),
                        ('comment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='votes.comment')),
                        ('post', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='votes.post')),
                    ],
                    options={
                        'db_table': 'blognomic_wordpressitem',
                        'constraints': [models.UniqueConstraint(fields=('kind', 'source_id'), name='wordpress_item_once')],
                    },
                ),
            ],
        ),
    ]
