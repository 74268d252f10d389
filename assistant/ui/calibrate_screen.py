"""The calibration screen: the table's own dice learned from the table app, face by face (docs/ui.md).

    entry (Fix, "Calibrate dice") -> no camera, or no PyTorch: said, with the way to add it; Back
    -> choose: d6 or d8 -> show: each face asked in turn, the camera's live view and the dice the reader
    found at rest (calibrate_work.Showing: vision.guide's steps) -> learn: a progress bar fed by the
    fine-tunes' steps (calibrate_work.Learning) -> result: the held-out check in players' words; Use it
    writes the profile where `play` reads it and the camera reads with it at once; Discard leaves all as it was

Back (Escape, a hold of the encoder, the Back or Cancel button) leaves at any time: the game was never touched;
the camera reads again as before (once the calibration has let it go: "stopping"); the views kept stay in their
folder, and the next calibration goes on from them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from assistant.rules.questions import counted
from assistant.ui import theme
from assistant.ui.calibrate_draw import Column, draw_bar, draw_faces, draw_view
from assistant.ui.calibrate_work import (
    Ended,
    Frame,
    Learned,
    Learning,
    Moved,
    Progress,
    Showing,
    Work,
    default_profile,
    has_pytorch,
    install_words,
)
from assistant.ui.calibrate_words import asked_words, check_words, seen_words
from assistant.ui.dial import draw_dial
from assistant.ui.form import Choice, Form
from assistant.ui.inputs import Action
from assistant.ui.intents import Item
from assistant.ui.new_game import handle as form_input
from assistant.ui.panel import Hit, draw_form

if TYPE_CHECKING:
    from assistant.ui.app import App
    from assistant.ui.devices import TableCamera
    from assistant.vision.guide import Asked, Seen

VIEWS = 5  # views of each face (vision.dice.VIEWS, `dice calibrate --views`)
PHASES = ("Checking: learning without some views, then reading them", "Learning from every view")
NO_CAMERA = ("This table has no camera to calibrate. Start it with its camera: nova-table play --camera picamera "
             "(or camera:0), or set source in the hardware file's [camera].")


class CalibrateScreen:
    """The pages: "message" (a word and Back), "choose", "show", "stopping", "learn", "result"."""

    name = "calibrate"

    def __init__(self, views: int = VIEWS, steps: int | None = None) -> None:
        self.views, self.steps = views, steps  # `steps`: batches a fine-tune (as many as tune.plan says where None)
        self.page = "message"
        self.title, self.message = "", ""
        self.form: Form | None = None
        self.camera: TableCamera | None = None  # the table's, as it was attached when the screen opened
        self.kind = "d6"
        self.work: Work | None = None
        self.held = False  # the camera is the calibration's: attached again on leaving
        self.frame: np.ndarray | None = None
        self.asked: Asked | None = None
        self.seen: Seen | None = None  # the view at rest read last
        self.still = False  # and the camera's view is still that one: its dice drawn where they lie
        self.progress = Progress(0, 0.0)
        self.learned: Learned | None = None
        self.error = ""
        self.focus = 0
        self.drawn: list[pygame.Rect] = []  # where the last frame's parts went (the tests look)

    # -- where it writes -------------------------------------------------------------------------

    def destination(self) -> Path:
        """Where the profile goes: the one the table reads now (--dice-profile, the hardware file's), or the default."""
        return (self.camera.profile if self.camera is not None else None) or default_profile()

    def folder(self) -> Path:
        from assistant.vision.command import views_folder

        return views_folder(self.destination())

    # -- entering and leaving --------------------------------------------------------------------

    def enter(self, app: App) -> None:
        self.camera, self.work, self.held, self.learned = app.camera, None, False, None
        self.frame = self.asked = self.seen = None
        self.still = False
        self.error, self.focus = "", 0
        if self.camera is None:
            self.say("No camera", NO_CAMERA)
        elif not has_pytorch():
            self.say("Learning needs PyTorch", "Calibrating learns your dice with PyTorch, which this table does not "
                     f"have. A maker adds it with: {install_words()}")
        else:
            self.page = "choose"
            self.kind = "d8" if self.camera.kind == "d8" else "d6"
            self.form = self.choose_form()

    def say(self, title: str, message: str) -> None:
        self.page, self.title, self.message, self.focus = "message", title, message, 0

    def choose_form(self) -> Form:
        """d6 or d8; where views of it were kept before, whether to go on from them or show every face anew."""
        field = Choice("kind", "Dice", [("d6", "d6"), ("d8", "d8")])
        field.select(self.kind)
        views = Choice("views", "Views", [("on", "go on"), ("anew", "show anew")],
                       show=lambda form: bool(self.kept(str(form.value("kind")))))
        return Form("calibrate", "Calibrate dice", [field, views], lambda form: {
            "kind": form.value("kind"), "anew": views.show is not None and views.show(form) and views.value == "anew"},
            self.noted, apply_label="Start")

    def kept(self, kind: str) -> dict[int, int]:
        """The views of each face of `kind` kept before in the folder (vision.guide.views_kept)."""
        from assistant.vision.guide import views_kept

        return dict(views_kept(self.folder() / "manifest.jsonl", kind))

    def noted(self, form: Form) -> None:
        """The form's words for the kind chosen; the views kept before: go on where some face is short, else anew."""
        from assistant.vision.dice import FACES

        kind, faces = str(form.value("kind")), FACES[str(form.value("kind"))]
        kept = self.kept(kind)
        done = sum(1 for face in range(1, faces + 1) if kept.get(face, 0) >= self.views)
        views = form.get("views")
        assert isinstance(views, Choice)
        if not views.touched:
            views.select("anew" if done == faces else "on")
        form.note = (f"Show the camera each face of your {kind}, {counted(self.views, 'time')}, when asked; then it "
                     "learns them (a few minutes).")
        if kept:
            shown = "Every face was shown before" if done == faces else f"{done} of {faces} faces were shown before"
            then = ("every face asked again; the views before are not learned from" if views.value == "anew" else
                    "it learns from those views again" if done == faces else "it asks for the others")
            form.note += f" {shown}: {then}."

    def leave(self, app: App) -> str | None:
        """Back to the table, once the camera is the table's again (a Showing still running is stopped first)."""
        work = self.work
        if work is not None:
            work.stop()
            if isinstance(work, Showing) and not work.done:
                self.page = "stopping"  # until its Ended comes: then the camera is free
                return None
            self.forget(app, work)
        self.restart(app, None)
        return "table"

    def forget(self, app: App, work: Work) -> None:
        """`work` is over (or left to end by itself): not the screen's any more; once its thread has ended, not
        waited for on closing either."""
        if work.done and work.close in app.closers:
            app.closers.remove(work.close)
        if self.work is work:
            self.work = None

    def restart(self, app: App, profile: Path | None) -> None:
        """The table's camera reading again (with `profile`, else the profile it had) where the calibration held it."""
        from assistant.ui.devices import attach_camera

        camera = self.camera
        if not self.held or camera is None:
            return
        self.held = False
        if camera.stop in app.closers:
            app.closers.remove(camera.stop)
        attach_camera(app, camera.source, tray=camera.tray, kind=camera.kind, profile=profile or camera.profile)

    # -- inputs ----------------------------------------------------------------------------------

    def buttons(self) -> list[Item]:
        if self.page == "result":
            return [Item("Use it", "u"), Item("Discard", "d", kind="command")]
        if self.page in ("show", "learn"):
            return [Item("Cancel", "c", kind="command")]
        if self.page == "message":
            return [Item("Back", "b", kind="command")]
        return []

    def handle(self, app: App, action: Action) -> str | None:
        if action.kind == "calibration":
            return self.heard(app, *action.value)
        if action.kind == "dice":  # the table's camera, before the calibration takes it: for the next roll opened
            app.keep_dice(action.value)
            return None
        if self.page == "choose" and self.form is not None:
            went, value = form_input(self.form, action, app.hits)
            self.error = value if went == "error" else ""
            if went == "start":
                if value["anew"]:
                    self.anew(app, str(value["kind"]))
                self.show(app, str(value["kind"]))
                return None
            return self.leave(app) if went == "back" else None
        buttons = self.buttons()
        if action.kind == "back":
            return self.leave(app)
        if not buttons:
            return None
        if action.kind == "turn":
            self.focus = (self.focus + int(action.value)) % len(buttons)
        elif action.kind == "confirm":
            return self.press(app, self.focus)
        elif action.kind == "key":
            pressed = [n for n, item in enumerate(buttons) if item.key == action.value]
            return self.press(app, pressed[0]) if pressed else None
        elif action.kind == "tap":
            pressed = [hit.target[1] for hit in app.hits if hit.target[0] == "item" and hit.rect.collidepoint(action.value)]
            return self.press(app, pressed[0]) if pressed else None
        return None

    def press(self, app: App, index: int) -> str | None:
        label = self.buttons()[index].label
        if label == "Use it":
            return self.accept(app)
        return self.leave(app)

    def anew(self, app: App, kind: str) -> None:
        """Every face of `kind` to be shown anew: its views before are left out of the folder's manifest."""
        from assistant.vision.guide import forget

        left = forget(self.folder() / "manifest.jsonl", kind)
        app.log(f"calibrating {kind} anew: {left} views before left out of {self.folder() / 'manifest.jsonl'}")

    def show(self, app: App, kind: str) -> None:
        assert self.camera is not None
        self.kind, self.page, self.held, self.focus = kind, "show", True, 0
        self.work = Showing(self.camera, kind, self.folder(), self.views).start()
        app.closers.append(self.work.close)  # quitting mid-way ends it too
        app.log(f"calibrating {kind} on {self.camera.source}; the views go to {self.folder()}")

    def heard(self, app: App, work: Work, message: Any) -> str | None:
        """A message of the calibration's threads (one of work left behind is not heard)."""
        from assistant.vision.guide import Seen

        if work is not self.work:
            return None
        if isinstance(message, str):
            app.log(message)
        elif isinstance(message, Frame):
            self.frame = message.image
        elif isinstance(message, Progress):
            self.progress = message
        elif isinstance(message, Learned):
            self.forget(app, work)
            self.learned, self.page = message, "result"
            self.focus = 1 if check_words(message.check)[1] == "worse" else 0
        elif isinstance(message, Ended):
            return self.ended(app, work, message)
        elif isinstance(message, Seen):
            self.seen, self.still = message, True
        elif isinstance(message, Moved):
            self.still = False
        else:  # a face asked (vision.guide.Asked)
            self.asked = message
        return None

    def ended(self, app: App, work: Work, end: Ended) -> str | None:
        self.forget(app, work)
        if self.page == "stopping" or end.why == "cancelled":
            return self.leave(app)
        if isinstance(work, Showing) and not end.why and not end.short:  # every face shown: learning
            self.page, self.progress, self.focus = "learn", Progress(0, 0.0), 0
            self.work = Learning(work.folder / "manifest.jsonl", self.steps).start()
            app.closers.append(self.work.close)
            return None
        kept = "The views kept so far stay: calibrate again to go on from there."
        if isinstance(work, Showing) and not end.why:
            faces = ", ".join(map(str, end.short))
            self.say("The camera ended", f"No more frames came before every face was shown ({self.kind} faces "
                                         f"{faces} still to show). {kept}")
        elif isinstance(work, Showing):
            self.say("The camera stopped", f"{end.why}. {kept}")
        else:
            self.say("Learning stopped", f"{end.why}. {kept}")
        return None

    def accept(self, app: App) -> str | None:
        """The profile learned, written where `play` reads it; the camera reads with it from now on."""
        from assistant.vision.errors import VisionError

        assert self.learned is not None
        where = self.destination()
        try:
            self.learned.profile.save(where)
        except VisionError as bad:
            self.error = str(bad)
            return None
        app.log(f"dice calibrated: the profile is {where}")
        self.restart(app, where)
        app.error = f"Dice calibrated: the camera reads your {self.kind} with what it learned."
        self.learned = None
        return "table"

    # -- drawing ---------------------------------------------------------------------------------

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        pygame.draw.rect(surface, theme.PANEL, lay.panel, border_radius=lay.px(10))
        inner = lay.panel.inflate(-2 * lay.gap, -2 * lay.gap)
        if self.page in ("show", "stopping"):
            self.drawn = [draw_view(surface, lay.dial, lay, fonts, self.frame, self.seen if self.still else None)]
        else:
            draw_dial(surface, lay.dial, app.game.state, fonts)  # the game, as it was left
            self.drawn = [lay.dial]
        if self.page == "choose" and self.form is not None:
            hits = draw_form(surface, inner, lay, self.form, fonts, self.error)
            self.drawn += [hit.rect for hit in hits]
            return hits
        column = Column(surface, inner, lay, fonts, self.buttons(), self.focus)
        getattr(self, f"draw_{self.page}")(column)
        self.drawn += column.drawn
        return column.hits

    def draw_message(self, column: Column) -> None:
        column.title(self.title, theme.DANGER if self.title != "No camera" else theme.TEXT)
        column.words([(self.message, theme.TEXT)])

    def draw_show(self, column: Column) -> None:
        from assistant.vision.dice import FACES

        asked = self.asked
        if asked is None:
            column.title(f"Calibrate {self.kind}")
            column.words([("Starting the camera…", theme.MUTED)])
            return
        column.title(f"Show {asked.value}: view {asked.view} of {asked.views}")
        column.mark(draw_faces(column.surface, column.take(column.lay.px(34)), column.lay, column.fonts,
                               FACES[asked.kind], asked.value, set(range(1, asked.value))))
        seen = self.seen  # (of the face before, where the last view of it was just kept)
        said = (seen_words(seen), theme.GOOD if seen.kept else theme.DANGER) if seen is not None else ("", theme.TEXT)
        column.words([(asked_words(asked), theme.TEXT), said])

    def draw_stopping(self, column: Column) -> None:
        column.title("Stopping the camera…", theme.MUTED)

    def draw_learn(self, column: Column) -> None:
        column.title(f"Learning your {self.kind}")
        column.words([(PHASES[self.progress.phase], theme.MUTED)])
        share = (self.progress.phase + self.progress.share) / len(PHASES)
        column.mark(draw_bar(column.surface, column.take(column.lay.px(40)), column.lay, column.fonts, share))
        column.words([("A few minutes. The game waits as it was; Cancel stops learning (the views stay).", theme.MUTED)])

    def draw_result(self, column: Column) -> None:
        assert self.learned is not None
        said, judged = check_words(self.learned.check)
        column.title(f"Your {self.kind}, learned", theme.DANGER if judged == "worse" else theme.TEXT)
        column.words([(said, theme.TEXT), (f"Use it keeps it in {self.destination()}", theme.MUTED),
                      (self.error, theme.DANGER)])
