from django.contrib import admin

from ruleset.models import Page, Revision

admin.site.register(Page)
admin.site.register(Revision)
