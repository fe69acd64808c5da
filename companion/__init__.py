"""The Abraca Who? table companion."""

__version__ = "0.1.0"
