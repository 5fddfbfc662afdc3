from django.contrib import admin

from blognomic.models import Heartbeat

admin.site.register(Heartbeat)
