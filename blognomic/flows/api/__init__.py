"""The API's writes that need the flows above the community features (posting a matter with its amendment).

They are declared on the API itself (``blognomic.community.api.views.api``), beside the reads of the same
addresses, and registered when the site starts (``blognomic.apps``).
"""
