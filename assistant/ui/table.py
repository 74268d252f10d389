"""The game the app plays: apply an intent's event, undo, redo, and the state to draw.

Two backends behind one small interface: `SavedGame` (the session journal in SQLite: every
event is stored, synchronously, before `apply` returns, so nothing shown as done is lost) and
`MemoryGame` (the same fold in memory, for tests and for when no state file can be used).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from assistant.rules import game as rules
from assistant.rules.scenario import Scenario
from assistant.rules.state import GameState


T = TypeVar("T")


class Refused(Exception):
    """An event the rules (or the journal) refused; nothing was changed or stored."""


class TableGame(Protocol):
    """What the app needs of a game in progress."""

    problem: str  # why the game can no longer be read (deleted or damaged elsewhere): shown, or ""

    @property
    def state(self) -> GameState: ...

    def apply(self, event: Mapping[str, Any]) -> GameState: ...

    def undo(self) -> GameState: ...

    def redo(self) -> GameState: ...

    def can_undo(self) -> bool: ...

    def can_redo(self) -> bool: ...

    def events(self, start: int = 0) -> list[dict[str, Any]]:
        """The surviving events from index `start` (0: the first), oldest first."""
        ...

    def close(self) -> None: ...

    def restart(self) -> GameState:
        """A new game of the same scenario (the finished one stays saved)."""
        ...

    @property
    def where(self) -> str:
        """Where the game is kept, in words (for the status line and the log)."""
        ...


class MemoryGame:
    """The fold of a list of events through the rules core, kept in memory with an undo cursor."""

    def __init__(self, scenario: Scenario) -> None:
        self._scenario = scenario
        self._states = [rules.new_game(scenario)]
        self._events: list[dict[str, Any]] = []
        self._head = 0
        self.problem = ""  # nothing else can change a game in memory
        self.kind = "mission"

    def restart(self) -> GameState:
        self.__init__(self._scenario)  # type: ignore[misc]
        return self.state

    @property
    def state(self) -> GameState:
        return self._states[self._head]

    @property
    def where(self) -> str:
        return "in memory only (not saved)"

    def events(self, start: int = 0) -> list[dict[str, Any]]:
        """The surviving events from index `start`, oldest first."""
        return [dict(e) for e in self._events[start : self._head]]

    def apply(self, event: Mapping[str, Any]) -> GameState:
        try:
            after = rules.apply(self.state, event)
        except ValueError as error:  # the why alone: the event's field at fault is for scripts and the log
            raise Refused(getattr(error, "message", str(error))) from None
        del self._events[self._head :]
        del self._states[self._head + 1 :]
        self._events.append(dict(event))
        self._states.append(after)
        self._head += 1
        return after

    def undo(self) -> GameState:
        if not self.can_undo():
            raise Refused("nothing to undo: the game is at its start")
        self._head -= 1
        return self.state

    def redo(self) -> GameState:
        if not self.can_redo():
            raise Refused("nothing to redo")
        self._head += 1
        return self.state

    def can_undo(self) -> bool:
        return self._head > 0

    def can_redo(self) -> bool:
        return self._head < len(self._events)

    def close(self) -> None:
        pass


class SavedGame:
    """A game in the session's state file (`assistant.session`): the journal is the only truth."""

    def __init__(self, state_file: Any, journal: Any) -> None:
        import sqlite3

        from assistant.session.errors import SessionError

        self._file = state_file
        self._journal = journal
        self._unreadable = (SessionError, sqlite3.Error)  # a game deleted or damaged by another process
        self._last: GameState = journal.state  # at the start a game that cannot be read is said by `play` itself
        self.problem = ""  # why the game could not be read since, or ""
        self.kind = str(state_file.game(journal.game_id).kind)  # "mission" or "status": which app plays it

    def _read(self, call: Callable[[], T], otherwise: T) -> T:
        """`call()`; where the game can no longer be read, `otherwise`, and `problem` says why."""
        try:
            value = call()
        except self._unreadable as error:
            self.problem = f"{error}: the game shown is the last one read, and nothing more is saved"
            return otherwise
        self.problem = ""
        return value

    @property
    def state(self) -> GameState:
        self._last = self._read(lambda: self._journal.state, self._last)
        return self._last

    @property
    def where(self) -> str:
        return f"{self._file.path} (game {self._journal.game_id})"

    @property
    def game_id(self) -> int:
        """The game's id in the state file."""
        return int(self._journal.game_id)

    def _change(self, call: Any, *args: Any) -> GameState:
        """One change of the journal (stored before it returns); Refused with the session's message."""
        from assistant.session.errors import EventRefused, SessionError

        try:
            call(*args)
        except EventRefused as error:
            raise Refused(error.plain) from None
        except SessionError as error:
            raise Refused(str(error)) from None
        return self.state

    def apply(self, event: Mapping[str, Any]) -> GameState:
        return self._change(self._journal.append, event)

    def undo(self) -> GameState:
        return self._change(self._journal.undo)

    def redo(self) -> GameState:
        return self._change(self._journal.redo)

    def restart(self) -> GameState:
        """A new game of the scenario (or Status table) this one was started from (its saved text), made the current game."""
        from assistant.session.errors import SessionError

        try:
            self._file.again(self._journal.game_id)
            self._journal = self._file.journal(None)
        except SessionError as error:
            raise Refused(str(error)) from None
        return self.state

    def events(self, start: int = 0) -> list[dict[str, Any]]:
        """The surviving events from index `start` (the journal counts them from 1)."""
        events: list[dict[str, Any]] = self._read(lambda: self._journal.events(start + 1), [])
        return events

    def can_undo(self) -> bool:
        return self._read(lambda: bool(self._journal.can_undo()), False)

    def can_redo(self) -> bool:
        return self._read(lambda: bool(self._journal.can_redo()), False)

    def close(self) -> None:
        self._file.close()


def open_saved_game(state_path: Path, scenario_path: Path | None, new: bool, status: str | None = None) -> SavedGame:
    """Resume the current game of the state file, or start one from `scenario_path`, or a game of Status from
    `status` (its table's setup: `assistant.session.status_fold.setup_text`).

    A new game starts when `new` is set, when a scenario or a Status table is given, or when the file has no game
    in progress. Raises the session's errors (a damaged state file, a wrong scenario) unchanged:
    their messages say what and where, and the file is left as it was.
    """
    from assistant.session.errors import NoSuchGame
    from assistant.session.games import StateFile
    from assistant.session.card_library import library_for
    from assistant.session.scenario_file import parse_scenario, read_scenario_text

    named = None if scenario_path is None else read_scenario_text(scenario_path, library_for(state_path))
    if named is not None:
        parse_scenario(named, str(scenario_path))  # a wrong file is said before the state file is made
    state_file = StateFile(state_path, create=True)
    try:
        start = new or scenario_path is not None
        if not start and status is None:
            try:
                start = state_file.game(None).status != "active"
            except NoSuchGame:
                start = True
        if status is not None:
            state_file.new_game(status, "the table", "status")
        elif start:
            source = scenario_path or demo_path()
            state_file.new_game(named if named is not None else read_scenario_text(source), str(source))
        return SavedGame(state_file, state_file.journal(None))
    except BaseException:
        state_file.close()
        raise


def open_campaign(state_path: Path) -> SavedGame:
    """The campaign sheet of the state file (made on first use), to read and change on the screen."""
    from assistant.session.games import StateFile

    state_file = StateFile(state_path, create=True)
    try:
        return SavedGame(state_file, state_file.journal("campaign"))
    except BaseException:
        state_file.close()
        raise


def start_again(state_path: Path) -> SavedGame:
    """A new game of the current game's mission or Status table (from the copy the file keeps; the demo where
    that copy cannot be read), made the current game. The current game stays in the file as it is."""
    from assistant.session.errors import SessionError
    from assistant.session.games import StateFile
    from assistant.session.scenario_file import read_scenario_text

    state_file = StateFile(state_path)
    try:
        try:
            state_file.again(None)
        except SessionError:
            state_file.new_game(read_scenario_text(demo_path()), str(demo_path()))
        return SavedGame(state_file, state_file.journal(None))
    except BaseException:
        state_file.close()
        raise


def demo_path() -> Path:
    """The bundled demo skirmish."""
    return Path(__file__).resolve().parent.parent / "demo" / "skirmish.toml"


def load_scenario(path: Path, state: Path | None = None) -> Scenario:
    """A scenario file read by the session's TOML loader (ScenarioError says what and where), the cards it names
    from the library beside `state` (the table's state file; None: the default one's)."""
    from assistant.session.card_library import library_for
    from assistant.session.scenario_file import load_scenario as load

    scenario, _ = load(path, library_for(state))
    return scenario
