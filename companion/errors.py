"""Errors that speak in table terms. All subclass ValueError: a bad event is bad input."""


class TableError(ValueError):
    """An event the companion cannot accept. The message is a sentence for the players."""


class LogFormatError(TableError):
    """A line that is not a well-formed event: not JSON, an unknown event, a missing field."""


class RuleError(TableError):
    """A well-formed event that the rules (or card counting) forbid at this point of the game."""
