from django.apps import AppConfig


class MessagingConfig(AppConfig):
    """Private messages between players."""

    name = "blognomic.community.messaging"
    label = "messaging"
    verbose_name = "Private messages"
