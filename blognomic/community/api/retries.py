"""How an API write says it is a retry (``Idempotency-Key``), as the schema declares it on every write; the
middleware that honours it is ``blognomic.community.api.idempotency``."""

HEADER = "Idempotency-Key"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

IDEMPOTENCY_KEY = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "description": "Any unique string (a UUID): a retry with the same key is answered as the first request was, "
    "and writes nothing more.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7e]+$"},
}
