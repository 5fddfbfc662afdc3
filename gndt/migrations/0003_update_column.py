"""Link each GNDT update to the column it is about, so updates about a hidden column stay secret."""

import django.db.models.deletion
from django.db import migrations, models


def link_updates_to_their_columns(apps, schema_editor):
    """Updates logged before the link existed: find the column each admin change or effect was about.

    Admin updates name their column in a fixed wording ("Added the column Gold", "Changed the scheduled
    effect Tithe: …"); an effect's run points at its effect. Matching the wording against the dynasty's own
    column and effect names, never parsing the name out, keeps names with a colon in them right.
    """
    Column = apps.get_model("gndt", "Column")
    ScheduledEffect = apps.get_model("gndt", "ScheduledEffect")
    EffectRun = apps.get_model("gndt", "EffectRun")
    Update = apps.get_model("gndt", "Update")
    for run in EffectRun.objects.filter(update__isnull=False).select_related("effect"):
        Update.objects.filter(pk=run.update_id).update(column_id=run.effect.column_id)
    columns = {}
    for column in Column.objects.all():
        columns.setdefault(column.dynasty_id, []).append(column)
    effects = {}
    for effect in ScheduledEffect.objects.all():
        effects.setdefault(effect.dynasty_id, []).append(effect)
    for update in Update.objects.filter(source="admin", column__isnull=True).only("pk", "dynasty_id", "comment"):
        comment = update.comment
        found = None
        for column in columns.get(update.dynasty_id, []):
            name = column.name
            if comment in (f"Added the column {name}", f"Removed the column {name}") or comment.startswith(
                f"Changed the column {name}: "
            ):
                found = column.pk
        for effect in effects.get(update.dynasty_id, []):
            if comment.startswith((f"Scheduled {effect.name}: ", f"Changed the scheduled effect {effect.name}: ")):
                found = effect.column_id
        if found is not None:
            Update.objects.filter(pk=update.pk).update(column_id=found)


class Migration(migrations.Migration):

    dependencies = [
        ('gndt', '0002_tables_log_actions_effects_lists'),
    ]

    operations = [
        migrations.AddField(
            model_name='update',
            name='column',
            field=models.ForeignKey(blank=True, help_text="The column this update is about: an admin's change to it, or a scheduled effect on it. Whoever may not see a hidden column does not see the updates about it.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='updates_about', to='gndt.column'),
        ),
        migrations.RunPython(link_updates_to_their_columns, migrations.RunPython.noop),
    ]
