from django.contrib import admin

from gndt.models import Column, Row

admin.site.register(Column)
admin.site.register(Row)
