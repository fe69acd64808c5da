"""The table screen, drawn with pygame-ce."""
