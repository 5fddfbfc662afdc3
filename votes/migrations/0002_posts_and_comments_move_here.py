"""Posts and comments move from the blog app to votes, keeping their tables (blognomic_post, blognomic_comment)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ruleset', '0002_rule_changes_and_protection_log'),
        ('blognomic', '0005_post_anonymous'),
        ('dynasties', '0003_rule_changes'),
        ('votes', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.CreateModel(
                    name='Post',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(allow_unicode=True, max_length=200, unique=True)),
                        ('kind', models.CharField(choices=[('proposal', 'Proposal'), ('cfj', 'Call for Judgement'), ('dov', 'Declaration of Victory'), ('story', 'Story Post'), ('ascension', 'Ascension Address'), ('post', 'Post')], default='post', max_length=12)),
                        ('title', models.CharField(max_length=300)),
                        ('posted_at', models.DateTimeField(db_index=True)),
                        ('edited_at', models.DateTimeField(blank=True, null=True)),
                        ('body', models.TextField(blank=True, help_text='Markdown. This is the post.')),
                        ('body_html', models.TextField(blank=True, editable=False)),
                        ('flavour', models.TextField(blank=True, help_text='Flavour text: shown with the post but not part of it (it changes no rules).')),
                        ('flavour_html', models.TextField(blank=True, editable=False)),
                        ('status', models.CharField(blank=True, choices=[('pending', 'Pending'), ('enacted', 'Enacted'), ('failed', 'Failed'), ('', 'Not votable')], default='', max_length=8)),
                        ('outcome', models.CharField(blank=True, choices=[('enacted', 'Enacted'), ('failed', 'Failed'), ('vetoed', 'Vetoed'), ('self-killed', 'Self-killed')], max_length=12)),
                        ('admin_note', models.TextField(blank=True, help_text='Filled in on resolution: who resolved it, when and the final tally.', verbose_name='admin field')),
                        ('trivial', models.BooleanField(default=False, help_text='2005 profile: a Trivial proposal.')),
                        ('sticky', models.BooleanField(default=False, help_text='Story posts only: keep at the top of the front page.')),
                        ('anonymous', models.BooleanField(default=False, help_text='2008: a Call for Judgement posted anonymously shows no author to anyone.')),
                        ('enactable_since', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('failable_since', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('stale_since', models.DateTimeField(blank=True, editable=False, help_text="When it had been pending more than seven days (2016): skipped for 'oldest', failable.", null=True)),
                        ('author', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='posts', to=settings.AUTH_USER_MODEL)),
                        ('dynasty', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='posts', to='dynasties.dynasty')),
                    ],
                    options={
                        'db_table': 'blognomic_post',
                        'ordering': ['-posted_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Comment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(db_index=True)),
                        ('icon', models.CharField(blank=True, choices=[('for', 'FOR'), ('against', 'AGAINST'), ('deferential', 'DEFERENTIAL'), ('veto', 'VETO')], max_length=12, null=True)),
                        ('trivial', models.BooleanField(default=False, help_text='2005 profile: a FOR vote marked Trivial.')),
                        ('text', models.TextField(blank=True)),
                        ('text_html', models.TextField(blank=True, editable=False)),
                        ('author', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='comments', to=settings.AUTH_USER_MODEL)),
                        ('post', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='comments', to='votes.post')),
                    ],
                    options={
                        'db_table': 'blognomic_comment',
                        'ordering': ['at', 'pk'],
                    },
                ),
                migrations.AlterField(
                    model_name='resolution',
                    name='post',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='resolutions', to='votes.post'),
                ),
                migrations.AddIndex(
                    model_name='post',
                    index=models.Index(fields=['kind', 'status', 'posted_at'], name='blognomic_p_kind_38d16d_idx'),
                ),
                migrations.AddIndex(
                    model_name='post',
                    index=models.Index(fields=['author', 'posted_at'], name='blognomic_p_author__404472_idx'),
                ),
                migrations.AddIndex(
                    model_name='comment',
                    index=models.Index(fields=['post', 'at'], name='blognomic_c_post_id_167b3f_idx'),
                ),
                migrations.AddIndex(
                    model_name='comment',
                    index=models.Index(fields=['author', 'at'], name='blognomic_c_author__3c57cd_idx'),
                ),
            ],
        ),
    ]
