from django.apps import AppConfig


class AmendmentsConfig(AppConfig):
    """Amendments applied on enactment: what each enacted matter's amendment wrote."""

    name = "blognomic.flows.amendments"
    label = "amendments"
    verbose_name = "Applied amendments"
