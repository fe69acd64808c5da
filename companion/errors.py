"""Errors that speak in table terms. All subclass ValueError: a bad event is bad input."""


class TableError(ValueError):
    """An event the companion cannot accept. The message is a sentence for the players.

    ``code`` (when given) names the refusal and ``params`` hold its particulars (names,
    cards, counts), so that a screen can say the same in the players' own language."""

    def __init__(self, message: str, *, code: str | None = None, **params) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class LogFormatError(TableError):
    """A line that is not a well-formed event: not JSON, an unknown event, a missing field."""


class RuleError(TableError):
    """A well-formed event that the rules (or card counting) forbid at this point of the game."""
