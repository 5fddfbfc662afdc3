"""GIN indexes for the search page's full-text matching of posts and comments, on PostgreSQL only.

Each index is over exactly the expression ``blognomic.community.search`` matches with (Django's ``SearchVector`` of
the same columns in the "english" configuration), so the planner can use it; any other expression would
leave every search reading the whole archive. SQLite has no such index and searches by substring, so there
the migration does nothing. CONCURRENTLY is not used: the tables are locked for writes while it builds.
"""

from django.db import migrations

INDEXES = {
    "post_search_vector": (
        "blognomic_post",
        "to_tsvector('english'::regconfig, COALESCE(\"title\", '') || ' ' || COALESCE(\"body\", ''))",
    ),
    "comment_search_vector": ("blognomic_comment", "to_tsvector('english'::regconfig, COALESCE(\"text\", ''))"),
}


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, (table, expression) in INDEXES.items():
        schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" USING gin (({expression}))')


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


class Migration(migrations.Migration):

    dependencies = [
        ("votes", "0006_matter_kind_phase"),
    ]

    operations = [
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]
