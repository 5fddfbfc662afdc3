"""The site's root keeps no models: each moved to the room whose job it is (running, web, flows.amendments,
moving.wordpress), tables and all; their content types follow them, so permissions and admin history stay."""

from django.db import migrations

MOVED = {
    "heartbeat": "running",
    "jobfailure": "running",
    "democlock": "running",
    "contentversion": "web",
    "readerversion": "web",
    "amendmentapplication": "amendments",
    "wordpressitem": "wordpress",
}


def move_content_types(apps, schema_editor, *, backwards=False):
    """Each moved model's content type names its new app, as renaming a model would do."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model, room in MOVED.items():
        old, new = (room, "blognomic") if backwards else ("blognomic", room)
        content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, backwards=True)


class Migration(migrations.Migration):

    dependencies = [
        ('blognomic', '0012_demo_clock'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('running', '0001_initial'),
        ('web', '0001_initial'),
        ('amendments', '0001_initial'),
        ('wordpress', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are; only Django's idea of which app owns the models changes.
            state_operations=[
                migrations.RemoveField(
                    model_name='amendmentapplication',
                    name='by',
                ),
                migrations.RemoveField(
                    model_name='amendmentapplication',
                    name='post',
                ),
                migrations.RemoveField(
                    model_name='amendmentapplication',
                    name='reverted_by',
                ),
                migrations.DeleteModel(
                    name='ContentVersion',
                ),
                migrations.DeleteModel(
                    name='DemoClock',
                ),
                migrations.DeleteModel(
                    name='Heartbeat',
                ),
                migrations.DeleteModel(
                    name='JobFailure',
                ),
                migrations.DeleteModel(
                    name='ReaderVersion',
                ),
                migrations.RemoveField(
                    model_name='wordpressitem',
                    name='comment',
                ),
                migrations.RemoveField(
                    model_name='wordpressitem',
                    name='post',
                ),
                migrations.DeleteModel(
                    name='AmendmentApplication',
                ),
                migrations.DeleteModel(
                    name='WordPressItem',
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
