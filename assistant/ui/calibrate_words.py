"""What the calibration screen says, in players' words (pure: no pygame, no camera)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.rules.questions import counted

if TYPE_CHECKING:
    from assistant.vision.guide import Asked, Seen
    from assistant.vision.heldout import Comparison


def asked_words(asked: Asked) -> str:
    return (f"Turn every {asked.kind} so that {asked.value} is on top, spread them on the tray, not touching, "
            "and take your hands away.")


def seen_words(seen: Seen) -> str:
    """A view at rest: kept (how many dice it learns from), or not kept and why."""
    if seen.why is not None:
        return f"Not kept: {seen.why}."
    moved, left = len(seen.moved), len(seen.found) - len(seen.moved)
    said = f"Kept: {counted(moved, seen.kind, seen.kind)} showing {seen.value}"
    if left:
        said += f"; {left} left out, not moved since the view before"
    return said + "."


def check_words(check: Comparison | None) -> tuple[str, str]:
    """What the held-out check found, and its verdict ("helps", "same", "worse", "unsure", or "" where none)."""
    if check is None:
        return "Too few views to check it on views it did not learn from.", ""
    mine, none = check.with_profile, check.without
    dice = mine.right + mine.misread + mine.unread
    said = (f"Checked on {counted(check.held, 'view', 'views')} it did not learn from: {mine.right} of "
            f"{counted(dice, 'die', 'dice')} read right with it, {none.right} without it")
    if mine.misread or none.misread:
        said += f" ({mine.misread} read wrong with it, {none.misread} without)"
    judged = check.judged
    verdict = {"helps": "It reads your dice better: use it.",
               "same": "It reads them about as well as without it.",
               "unsure": "Too few dice to say whether it reads them better: show each face more times to be sure.",
               "worse": "It reads them worse than without it: discard it, then show every face again, your own "
                        "dice on your own tray."}[judged]
    return f"{said}. {verdict}", judged
