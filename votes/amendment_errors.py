"""Why an amendment's operation could not be applied: one pair of errors for the Ruleset's operations and the
GNDT's, defined here, beneath both, so either record may raise them and a caller catches one class."""

from __future__ import annotations


class AmendError(ValueError):
    """An operation could not be applied, or an edit cannot be written as operations, for ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OperationRefused(AmendError):
    """The operation at ``index`` (from 0) in the amendment could not be applied; nothing of it was."""

    def __init__(self, reason: str, *, index: int) -> None:
        super().__init__(reason)
        self.index = index
