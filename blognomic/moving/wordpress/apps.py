from django.apps import AppConfig


class WordPressConfig(AppConfig):
    """Moving a game in from WordPress: which of an export's posts and comments are already here."""

    name = "blognomic.moving.wordpress"
    label = "wordpress"
    verbose_name = "WordPress import"
