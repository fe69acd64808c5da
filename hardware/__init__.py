"""The table's hardware: LED health dials, buttons and their pin map, all through gpiozero.

`hardware.config` reads and checks pin maps (no gpiozero); `hardware.panel` builds the dials and
buttons on a pin factory, or on gpiozero's MockFactory for the virtual panel.
"""
