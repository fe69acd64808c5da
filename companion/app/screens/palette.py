"""The screens' colours: the table and the operator menu drawn over it, and the kiosk's
attract and players' screens."""

BG = (24, 26, 34)
PANEL = (38, 42, 54)
PANEL_HI = (58, 64, 84)
TEXT = (236, 236, 240)
DIM = (150, 154, 168)
WARN = (255, 186, 73)
GOOD = (112, 214, 120)
BAD = (240, 92, 92)
GOLD = (250, 210, 90)
LED_ON = (255, 170, 40)
LED_OFF = (70, 60, 50)
SEAT_RGB = {"Red": (220, 70, 70), "Orange": (240, 140, 50), "Yellow": (230, 210, 60),
            "Green": (80, 190, 100), "Blue": (80, 140, 235), "Purple": (170, 100, 220)}
CARD_RGB = {"ghost": (200, 205, 230), "vampire": (170, 40, 60), "living_armor": (120, 130, 150),
            "butler": (60, 70, 110), "cook": (220, 150, 60), "cleaner": (90, 160, 140)}
# The kiosk's own screens (attract pages, players' statistics): a night sky.
NIGHT = (18, 16, 32)
NIGHT_TITLE = (250, 214, 120)
NIGHT_TEXT = (236, 236, 244)
NIGHT_DIM = (150, 150, 176)
