from django.db import migrations, models


def render_sent_messages(apps, schema_editor):
    """Messages sent before bodies were rendered once, on sending, are rendered now, as sending would."""
    from votes.markup import render_markdown

    Message = apps.get_model("messaging", "Message")
    changed = []
    for message in Message.objects.only("pk", "body").iterator(chunk_size=2000):
        message.body_html = render_markdown(message.body)
        changed.append(message)
        if len(changed) >= 2000:
            Message.objects.bulk_update(changed, ["body_html"])
            changed = []
    Message.objects.bulk_update(changed, ["body_html"])


class Migration(migrations.Migration):

    dependencies = [
        ('messaging', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='message',
            name='body_html',
            field=models.TextField(blank=True, editable=False, help_text="The body's Markdown, rendered once when sent."),
        ),
        migrations.RunPython(render_sent_messages, migrations.RunPython.noop),
    ]
