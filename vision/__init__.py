"""Card vision: camera sources, card detection and recognition, reveal tracking."""

import os

# The largest picture read, in pixels (12,000 x 8,000 is 96 million). A decoded picture takes
# three bytes a pixel: one of 30,000 x 30,000, under OpenCV's own limit of a thousand million,
# took 5 GB to read, more than a Raspberry Pi has. OpenCV reads its limit once, when it is
# loaded, so it is set here, before any part of vision loads OpenCV; a limit set outside is
# kept.
MAX_PICTURE_PIXELS = 100_000_000
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PICTURE_PIXELS))
