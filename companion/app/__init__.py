"""The table app: the main loop, the flow at the table, the screens and the languages."""
