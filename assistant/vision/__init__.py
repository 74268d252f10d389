"""Dice vision: frame sources, tray, settle detection, the dice reader, profiles and the renderer.

Nothing here imports cv2 or numpy at package import time; `assistant.vision.command` loads the
heavy modules inside `run`, so `nova-table --help` stays fast.
"""

import os

# OpenCV refuses, from the file's header and before decoding it, a picture of more pixels than this (it
# reads the variable once, when it loads): a 30000 x 30000 PNG of 1 MB would otherwise take 5 GB to decode.
# images.MAX_PIXELS is the same figure.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")
# FFmpeg writes its own complaints about a video it cannot read ("moov atom not found") straight to
# stderr, past OpenCV's logging; the source says what is wrong in its own words (AV_LOG_QUIET is -8).
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
