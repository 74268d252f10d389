"""The main loop: inputs in, intents applied to the game (saved before they are shown), the screen drawn."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from assistant import files
from assistant.rules.perilium import MAX_THREAT
from assistant.rules.questions import Question
from assistant.rules.state import GameState
from assistant.service import service
from assistant.ui import theme
from assistant.ui.form import Form, Reading
from assistant.ui.inputs import DICE, Action, translate
from assistant.ui.knob_press import knob_pressed
from assistant.ui.layout import Layout, layout_for
from assistant.ui.panel import Hit
from assistant.ui.reactions import adjacency_question, declare_event, move_ready
from assistant.ui.screens import FormScreen, Machine, Screen, TableScreen
from assistant.ui.table import Refused, TableGame
from assistant.ui.theme import Fonts

if TYPE_CHECKING:
    from assistant.ui.devices import TableCamera

HOLD_TO_QUIT = 1.0  # seconds Escape must be held to close the app


class Mirror(Protocol):
    """Something outside the screen that follows the game (the RP2040 board's LED ring and tray light)."""

    def show(self, state: GameState) -> None: ...

    def tray(self, on: bool) -> None: ...


class App:
    """One table: a game, a screen surface, and whatever mirrors them."""

    def __init__(self, game: TableGame, surface: pygame.Surface, mirrors: list[Mirror] | None = None,
                 log: Callable[[str], None] | None = None) -> None:  # fmt: skip
        self.game = game
        self.surface = surface
        self.mirrors = list(mirrors or [])
        self.log = log or (lambda message: print(f"nova-table: {message}", file=sys.stderr))
        self.fonts = Fonts()
        self.layout: Layout = layout_for(*surface.get_size())
        self.form: Form | None = None
        self.error = ""  # a refusal, in red where the table acts
        self.said: list[str] = []  # neutral words since the game last changed (the camera's dice), in the log
        self.hits: list[Hit] = []
        self.asking = False  # Renaissance: the active Hero's Move waits for who is adjacent (not journaled yet)
        self.moves = 0  # the game's changes seen here (events applied, undone, redone, or by another process)
        self.dice_read: tuple[Reading, int] | None = None  # the camera's last dice, and `moves` when read
        self.camera: TableCamera | None = None  # the dice camera (devices.attach_camera); calibration stops, restarts it
        self.clock: Callable[[], float] = time.monotonic  # (a test's own clock)
        self.read_until = 0.0  # `clock` until which the camera's words stay (`screens.fill`); 0 after an input
        self.machine = Machine(self.screens(), "table")
        self.running = False
        self.dirty = True
        self.frames = 0
        self.closers: list[Callable[[], None]] = []
        self._escape_down: float | None = None
        self._knobs: dict[int, int] = {}
        self._shown = game.state  # the state the screen was drawn from
        self.machine.start(self)
        self._mirror()

    def screens(self) -> list[Screen]:
        """The screens of this game: "table" (the first), "form" and "calibrate" (the dice camera's)."""
        from assistant.ui.calibrate_screen import CalibrateScreen

        return [TableScreen(), FormScreen(), CalibrateScreen()]

    # -- what inputs do ----------------------------------------------------------------------

    def act(self, event: Mapping[str, Any]) -> bool:
        """Apply one event (stored by the journal before this returns); False and a message if refused."""
        try:
            self.game.apply(event)
        except Refused as refused:
            self.error = f"Refused: {refused}"
            self.log(f"refused {dict(event)}: {refused}")
            return False
        self.error = ""
        self.said = []
        self.asking = False
        self.moves += 1
        self._mirror()
        return True

    def say(self, words: str) -> None:
        """Neutral words for the table (not a refusal): the log's newest until the game changes."""
        self.said = [*self.said[-5:], words]

    def command(self, name: str) -> bool:
        """Undo, redo, or (once the mission is over) play it again; True when the game changed."""
        if name == "undo" and self.asking:
            self.asking = False  # nothing journaled yet: undo drops the question
            self.error = ""
            return False
        before = self.game.state
        try:
            {"undo": self.game.undo, "redo": self.game.redo, "restart": self.game.restart}[name]()
        except Refused as refused:
            self.error = str(refused)
            return False
        self.error = ""
        self.said = []
        self.moves += 1
        after = self.game.state
        self.asking = name == "undo" and self._asks_again(before, after)
        done = {"undo": getattr(before, "notes", ()), "redo": getattr(after, "notes", ())}.get(name)  # what it took back
        if done is not None:
            self.say(f"{'Undone' if name == 'undo' else 'Redone'}: {done[0] if done else 'the last change'}")
        self._mirror()
        return True

    @staticmethod
    def _asks_again(before: Any, after: Any) -> bool:
        """Undoing a declared Move asks again who is adjacent (as it was before the answer)."""
        return _declared(before) and not _declared(after) and after.active == before.active

    def keep_dice(self, reading: Reading) -> None:
        """The camera's dice, for a form opened before the game changes (`fresh_dice`)."""
        self.dice_read = (reading, self.moves)

    def fresh_dice(self) -> Reading | None:
        """The camera's last dice, if the game has not changed since they were read."""
        return self.dice_read[0] if self.dice_read is not None and self.dice_read[1] == self.moves else None

    # -- the Reaction Attack round (Renaissance): who is adjacent is the screen's own until answered --

    def adjacency(self) -> Question | None:
        """Who is adjacent to the active Hero, while the screen asks it for their Move."""
        question = adjacency_question(self.game.state) if self.asking else None
        self.asking = question is not None
        return question

    def ask_adjacent(self) -> bool:
        """The active Hero declares a Move: True when the table must first say who is adjacent."""
        self.asking = adjacency_question(self.game.state) is not None
        return self.asking

    def react(self, adjacent: list[str]) -> bool:
        """Journal the declared Move with the adjacent Enemies named; True when no attack is owed (the Hero moves now)."""
        return self.act(declare_event(adjacent)) and move_ready(self.game.state)

    def rolling(self) -> tuple[str, int] | None:
        """The open form's roll: the kind of its dice ("d6", "d8") and how many (one while a die is re-rolled); None
        without one (read from any thread)."""
        form = self.form
        dice = form.dice() if form is not None else None
        if dice is not None and dice.pending is not None:
            return (f"d{dice.sides}", 1)  # a die re-rolled: that die alone
        return (f"d{dice.sides}", len(dice.values)) if dice is not None else None

    def tray(self, on: bool) -> None:
        self._to_mirrors(lambda mirror: mirror.tray(on))

    def _mirror(self) -> None:
        state = self.game.state
        self._to_mirrors(lambda mirror: mirror.show(state))

    def _to_mirrors(self, call: Callable[[Mirror], None]) -> None:
        for mirror in self.mirrors:
            try:
                call(mirror)
            except OSError as error:  # a board pulled out mid-game must not stop the table
                self.log(f"cannot update {mirror!r}: {error}")

    def handle(self, action: Action) -> None:
        self.dirty = True
        if action.kind not in ("dice", "status", "notice"):  # the table's own input: the camera's words were seen
            self.read_until = 0.0
        if action.kind == "quit":
            self.running = False
        elif action.kind in ("undo", "redo"):
            if self.command(action.kind):
                self._close_form()
        elif action.kind == "knob":
            hero, delta = action.value
            self._knobs[hero] = self._knobs.get(hero, 0) + delta
        elif action.kind == "press":
            self._press(int(action.value))
        elif action.kind in ("status", "notice"):
            self.log(str(action.value))
            if action.kind == "notice":  # shown where a refusal is, until the next form opens or command applies
                self.error = str(action.value)
        else:
            self.machine.go(self, self.machine.current.handle(self, action))

    def _close_form(self) -> bool:
        """Close the open form after the game changed under it: it was made for the game before (True if one was open)."""
        if self.form is None:
            return False
        self.form = None
        self.tray(False)
        self.machine.go(self, "table")
        return True

    def _press(self, index: int) -> None:
        """Hero `index`'s knob pressed on the board (`knob_press`)."""
        knob_pressed(self, index)

    def _apply_knobs(self) -> None:
        """Knob turns of one loop pass, summed per hero into one Threat event each."""
        knobs, self._knobs = self._knobs, {}
        heroes = self.game.state.heroes
        for index, delta in sorted(knobs.items()):
            if delta and 0 <= index < len(heroes):  # a fast spin past the Perilium's ends ends there
                delta = max(-MAX_THREAT, min(MAX_THREAT, delta))
                asking = self.asking  # a Threat turned by another player leaves the "who is adjacent?" question open
                self.act({"type": "threat", "hero": heroes[index].id, "delta": delta})
                self.asking = asking

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self._escape_down = time.monotonic()
            return
        if event.type == pygame.KEYUP and event.key == pygame.K_ESCAPE:
            if self._escape_down is not None:
                self._escape_down = None
                self.handle(Action("back"))
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE):
            self.resize(pygame.display.get_surface() or self.surface)
            return
        action = translate(event)
        if action is not None:
            self.handle(action)

    def resize(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.layout = layout_for(*surface.get_size())
        self.dirty = True

    # -- the loop ------------------------------------------------------------------------------

    def draw(self) -> None:
        self.surface.fill(theme.BACKGROUND)
        self._shown = self.game.state
        self.hits = self.machine.current.draw(self, self.surface)
        if pygame.display.get_init() and pygame.display.get_surface() is self.surface:
            pygame.display.flip()
        self.frames += 1
        self.dirty = False

    def pump(self, wait_ms: int = 0) -> None:
        """One pass of the loop: wait up to `wait_ms` for input, handle it all, draw if anything changed."""
        first = pygame.event.wait(wait_ms) if wait_ms else pygame.event.poll()
        events = [first] if first.type != pygame.NOEVENT else []
        events += pygame.event.get()
        if self.game.state is not self._shown:  # changed by another process on the state file (`session apply`):
            self.dirty = True  # shown anew, and a tap or Enter aimed at the screen before is not taken for one on it
            self.moves += 1
            self._mirror()
            events = [event for event in events if not _aimed(event)]
            if self._close_form():
                self.error = "The game was changed elsewhere: the form is closed"
        if self.game.problem and self.error != self.game.problem:  # deleted or damaged by another process
            self.error = self.game.problem
            self.dirty = True
        read = False  # the camera's dice came in this pass: the form changed under a finger lifted to tap it
        for event in events:
            if read and _aimed(event):  # at what was drawn before (a tap or a press on Apply would apply dice not yet seen)
                self.say("The camera's dice came as you tapped: the tap was not taken; tap again.")
                continue
            self.handle_event(event)
            read = read or event.type == DICE
            if not self.running:
                break
        if self._knobs:
            self._apply_knobs()
        if self._escape_down is not None and time.monotonic() - self._escape_down >= HOLD_TO_QUIT:
            self.log("Escape held: closing")
            self.running = False
        if self.dirty and self.running:
            self.draw()

    def run(self) -> int:
        """Until closed (window, Escape held, Ctrl+Q, SIGTERM): 0."""
        self.running = True
        previous = self._catch_sigterm()
        try:
            self.draw()
            service.ready()  # systemd (Type=notify): the table is on the screen
            while self.running:
                self.pump(100)
                service.alive()  # its watchdog: a loop that hangs is restarted
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            service.stopping()
            self.close()
        return 0

    def _catch_sigterm(self) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return None

        def stop(signum: int, frame: Any) -> None:
            self.log("SIGTERM: closing")
            self.running = False
            pygame.event.post(pygame.event.Event(pygame.USEREVENT))  # wake the wait

        return signal.signal(signal.SIGTERM, stop)

    def close(self) -> None:
        for closer in reversed(self.closers):
            try:
                closer()
            except Exception as error:  # closing one device must not keep the others open
                self.log(f"while closing: {error}")
        self.closers.clear()
        self.game.close()

    def screenshot(self, path: str, keep: Sequence[str] = ()) -> None:
        """Draw now and save the screen as an image (PNG by the name), never over one of `keep` (files.writing)."""
        self.draw()
        with files.writing(Path(path), "the screenshot", keep, binary=True) as out:
            pygame.image.save(self.surface, out, Path(path).name)


def _aimed(event: pygame.event.Event) -> bool:
    """Whether an input acts on what is drawn (a tap, a press of Enter, of the encoder or of a hero's knob)."""
    action = translate(event)
    return action is not None and action.kind in ("tap", "confirm", "press")


def _declared(state: GameState) -> bool:
    return state.turn is not None and state.turn.move is not None
