"""Dice vision: frame sources, tray, settle detection, the dice reader, profiles and the renderer.

Nothing here imports cv2 or numpy at package import time; `assistant.vision.command` loads the
heavy modules inside `run`, so `nova-table --help` stays fast.
"""
