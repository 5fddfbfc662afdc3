"""A last check on every save: no text field of any model stores a NUL byte.

The middleware refuses NUL bytes in requests; this catches what arrives another way (a management command, a
file read by an import, the shell). PostgreSQL cannot store NUL in text and fails mid-transaction; SQLite
stores it, and every page showing it would then differ between the two databases.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

NUL_IN_FIELD = "{model} {field} may not contain the NUL character (\\u0000)."


def refuse_nul_bytes(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """``pre_save``: raise ``ValidationError`` naming the field when a text field holds a NUL byte."""
    for field in instance._meta.concrete_fields:
        if not isinstance(field, models.CharField | models.TextField):
            continue
        if update_fields is not None and field.name not in update_fields:
            continue
        value = getattr(instance, field.attname, None)
        if isinstance(value, str) and "\x00" in value:
            raise ValidationError(
                {field.name: NUL_IN_FIELD.format(model=instance._meta.verbose_name.capitalize(), field=field.name)}
            )
