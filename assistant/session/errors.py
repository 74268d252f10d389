"""What can go wrong with a state file, a scenario file or an event, as exceptions with a clear message."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class SessionError(Exception):
    """Base of every error the session reports to the players; the message says what and where."""


class StateFileError(SessionError):
    """The state file is missing, damaged, not ours or too new; it has been left as it was."""


class NoSuchGame(SessionError):
    """No saved game with that id (or no current game) in the state file."""


class NothingToUndo(SessionError):
    """Undo at the first event, or redo with no undone event left."""


class EventRefused(SessionError):
    """The rules (or the campaign sheet) refused an event; it was not stored. `plain`: the why alone, without
    the event's field at fault (what the table's screen says)."""

    def __init__(self, message: str, plain: str | None = None) -> None:
        super().__init__(message)
        self.plain = message if plain is None else plain


class ExchangeError(SessionError):
    """An export file (JSON lines) that cannot be imported; nothing was imported."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a scenario file: where and what; `file` where it is in another file (a card it names)."""

    line: int | None
    field: str
    message: str
    file: str | None = None

    def render(self, path: str) -> str:
        path = self.file or path
        where = f"{path}:{self.line}" if self.line is not None else path
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ScenarioError(SessionError):
    """A scenario file (or a card file) that cannot be played; every problem found is listed with its line."""

    def __init__(self, path: str, problems: Sequence[Problem]) -> None:
        self.path = path
        self.problems = tuple(sorted(problems, key=lambda p: (p.file or "", p.line or 0, p.field)))  # its own first
        super().__init__("\n".join(p.render(path) for p in self.problems))
