"""The API's OpenAPI schema as the text of the file the documentation renders (``docs/reference/openapi.json``).

The site serves the same schema at ``/api/openapi.json``; writing it out keeps the reference pages made from the
code, and a test fails when the committed file and the code part ways.
"""

from __future__ import annotations

import json
from pathlib import Path

from blognomic.community.api.views import api

# Where the API is mounted (blognomic/urls.py), as the served schema names its paths.
PATH_PREFIX = "/api/"
DOCUMENTED_SCHEMA = Path(__file__).resolve().parents[3] / "docs" / "reference" / "openapi.json"


def openapi_text() -> str:
    """The schema as stable, readable JSON: indented, keys in the order the API declares them, one final newline."""
    return json.dumps(api.get_openapi_schema(path_prefix=PATH_PREFIX), ensure_ascii=False, indent=2) + "\n"
