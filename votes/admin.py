from django.contrib import admin

from votes.models import Resolution

admin.site.register(Resolution)
