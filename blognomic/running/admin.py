from django.contrib import admin

from blognomic.running.models import Heartbeat, JobFailure

admin.site.register(Heartbeat)


@admin.register(JobFailure)
class JobFailureAdmin(admin.ModelAdmin):
    list_display = ["task", "at", "error", "task_id"]
    list_filter = ["task"]
    search_fields = ["task", "task_id", "error"]
