"""The table app playing Nova Lectio: Status: every screen drawn at 800x480 and 720x1280 with nothing cut or
overlapping; a round played by keys, the encoder and taps through the real loop, each action in the journal
before it is shown; undo; the final count entered a Faction at a time and shown step by step; a new game chosen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from assistant.session.games import StateFile
from assistant.session.status_fold import setup_text
from assistant.status import Faction, Phase, StatusGame
from assistant.ui import theme
from assistant.ui.form import APPLY, Choice, Number, Stop
from assistant.ui.inputs import ENCODER, Action
from assistant.ui.new_game import draw_chooser, handle
from assistant.ui.status_app import StatusApp, app_for
from assistant.ui.status_board import FACTION_COLORS, LETTERS, regions
from assistant.ui.status_forms import SHORT, new_game_form, preview
from assistant.ui.table import SavedGame, open_saved_game
from assistant.ui.theme import Fonts
from tests.session.status_script import FACTIONS, PRIORITY, whole_game
from tests.ui.conftest import click, feed, key
from tests.ui.pixels import find_text

SIZES = [(800, 480), (720, 1280)]
EVENTS = whole_game()

TIE = [  # round 1, Phase II: the Mano and the Ragione each put a 1 on card 1 (Military 5 and 6)
    {"type": "send_official", "faction": f, "card": c, "value": v}
    for v, cards in ((1, (1, 1, 2)), (2, (3, 4, 2)), (3, (3, 4, 2)), (None, (3, 4, 2)))
    for f, c in zip(FACTIONS, cards)
] + [{"type": "advance"}]


def started(tmp_path: Path, events: list[dict[str, Any]], size: tuple[int, int] = (800, 480),
            factions: tuple[str, ...] = FACTIONS) -> StatusApp:  # fmt: skip
    """The app on a saved game of Status (the script's table, or `factions`) after `events`, on a real surface of
    `size`."""
    path = tmp_path / "table.db"
    with StateFile(path, create=True) as games:
        games.new_game(setup_text(factions, PRIORITY), "the table", "status")
        journal = games.journal()
        for event in events:
            journal.append(event)
    surface = pygame.display.set_mode(size)
    pygame.event.clear()
    app = app_for(open_saved_game(path, None, new=False), surface, log=lambda message: None)
    assert isinstance(app, StatusApp)
    return app


def upto(kind: str, nth: int = 0) -> int:
    """How many of the script's events come before its `nth` event of `kind` (0: the first)."""
    return [i for i, event in enumerate(EVENTS) if event["type"] == kind][nth]


def pressed(*names: str) -> Callable[[StatusApp], None]:
    def press(app: StatusApp) -> None:
        for name in names:
            app.handle(Action("key", name) if len(name) == 1 and name.isalpha() else Action(name))

    return press


CASES: dict[str, tuple[list[dict[str, Any]], Callable[[StatusApp], None] | None]] = {
    "sending": (EVENTS[:4], None),
    "send-form": (EVENTS[:4], pressed("s")),
    "fix-form": (EVENTS[:4], pressed("f")),
    "tie-form": (TIE, pressed("r")),
    "tie": (TIE + [{"type": "resolve_card", "officials": {"mano": [1], "ragione": [1]}, "reward": 1}], None),
    "newspaper": (EVENTS[:2] + [{"type": "send_official", "faction": "milizia", "newspaper": 2, "value": None}], None),
    "new-events": (EVENTS[: upto("advance", 4) + 1], None),  # round 2, Phase I
    "income": (EVENTS[: upto("increase_status") - 1], None),
    "increase": (EVENTS[: upto("increase_status") + 1], None),
    "priority": (EVENTS[: upto("increase_status") + 4], None),
    "end": (EVENTS[:-1], None),
    "count-form": (EVENTS[:-1], pressed("c", "confirm", "confirm", "confirm", "confirm", "confirm", "confirm")),
    "over": (EVENTS, pressed("n", "n", "n", "n", "n", "n")),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("case", list(CASES))
def test_every_status_screen_fits_and_reads(case: str, size: tuple[int, int], tmp_path: Path, shots: Path) -> None:
    events, then = CASES[case]
    app = started(tmp_path, events, size)
    if then is not None:
        then(app)
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"status-{case}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == [], f"text cut to fit: {app.fonts.squeezed}"
    screen = pygame.Rect(0, 0, *size)
    board, panel = regions(app.layout)
    assert screen.contains(board) and screen.contains(panel) and not board.colliderect(panel)
    rects = [hit.rect for hit in app.hits]
    assert rects, "nothing to touch"
    for index, rect in enumerate(rects):
        assert panel.contains(rect), f"{app.hits[index].target} {rect} is off the panel {panel}"
        assert rect.height >= 0.06 * min(size), f"{app.hits[index].target} is too small to touch"
        assert not any(rect.colliderect(other) for other in rects[index + 1 :]), f"{app.hits[index].target} overlaps"
    clock = pygame.Rect(board.left, board.top, board.width, board.height // 9)  # the Clock token on its phase
    lit = sum(1 for x in range(clock.left, clock.right, 2) for y in range(clock.top, clock.bottom, 2)
              if app.surface.get_at((x, y))[:3] == theme.ACTIVE)  # fmt: skip
    assert (lit > 0) == (app.status.phase is not Phase.END), "the current phase is lit, and no phase after the game"
    app.close()


def test_a_round_is_played_by_keys_the_encoder_and_taps_each_action_saved_before_it_is_shown(tmp_path: Path) -> None:
    app = started(tmp_path, [])
    path = tmp_path / "table.db"
    saved: list[tuple[int, int]] = []
    draw = app.draw

    def check_then_draw() -> None:  # another opening of the file, as after a pulled plug
        with StateFile(path) as other:
            saved.append((app.status.count, other.journal(None).state.count))
        draw()

    app.draw = check_then_draw  # type: ignore[method-assign]
    feed(app, key("s"), key("return"), key("return"), key("return"))  # the Mano: card 1, face down
    encoder = [pygame.event.Event(ENCODER, action=a, value=v) for a, v in
               (("confirm", 0), ("turn", 1), ("confirm", 0), ("turn", 2), ("confirm", 0), ("confirm", 0))]  # fmt: skip
    feed(app, *encoder)  # the Ragione: Card 2, its 2 face up
    feed(app, click(next(hit.rect.center for hit in app.hits if hit.target == ("item", 0))))  # Send Official
    assert app.form is not None and app.form.name == "send"
    feed(app, click(next(hit.rect.center for hit in app.hits if hit.target[:2] == ("stop", APPLY))))
    sent = [(str(o.faction), o.card, o.value) for o in app.status.officials]
    assert sent == [("mano", 1, None), ("ragione", 2, 2), ("milizia", 1, None)]
    assert saved and all(shown == stored for shown, stored in saved), saved
    feed(app, key("u"))
    assert app.status.to_play is Faction.MILIZIA and len(app.status.officials) == 2
    feed(app, key("s"), key("return"), key("2"), key("return"), key("return"))  # Card 1, its 1 face up
    assert app.status.officials[-1].value == 1 and not app.game.can_redo()  # the undone one gone
    app.close()
    resumed = SavedGame(*_opened(path))
    assert [(str(o.faction), o.value) for o in cast(StatusGame, resumed.state).officials] == [("mano", None), ("ragione", 2), ("milizia", 1)]
    resumed.close()


def _opened(path: Path) -> tuple[StateFile, Any]:
    games = StateFile(path)
    return games, games.journal(None)


def test_a_card_is_resolved_with_its_face_down_officials_set_and_the_tie_said(tmp_path: Path) -> None:
    app = started(tmp_path, TIE)
    feed(app, key("r"))
    assert app.form is not None and "a tie, Ragione di Stato takes it" in preview(app.status, app.form)
    assert app.form is not None and app.form.focus.field == app.form.fields.index(app.form.get("reward"))  # no "?"
    feed(app, key("1"), key("return"), key("return"))  # Reward: 1 Status; Resolve
    assert app.form is None
    notes = " ".join(app.status.notes)
    assert "Mano Invisibile and Ragione di Stato tie" in notes and "Ragione di Stato takes card 1" in notes
    assert app.status.track[Faction.RAGIONE] == 5 and app.status.track[Faction.MANO] == 6  # stepped back, swapped
    assert app.status.status[Faction.RAGIONE] == 2 and app.status.next_card == 2
    app.close()


def test_the_final_count_is_entered_a_faction_at_a_time_then_shown_step_by_step(tmp_path: Path) -> None:
    app = started(tmp_path, EVENTS[:-1])
    feed(app, key("c"), key("3"), key("return"), key("2"), key("return"), key("1"), key("return"), key("1"),
         key("return"), key("1"), key("return"), key("return"))  # fmt: skip  # the Mano's page: 3, 2, 1, 1, 1; Next
    assert app.form is not None and app.form.title.startswith("Ragione") and app.status.phase is Phase.END
    feed(app, key("5"), key("return"), key("2"), key("return"), key("2"), key("return"), key("0"), key("return"),
         key("1"), key("return"), key("return"))  # fmt: skip
    feed(app, key("1"), key("return"), key("0"), key("return"), key("1"), key("return"), key("2"), key("return"),
         key("1"), key("return"), key("return"))  # fmt: skip  # the last page: Count
    assert app.form is None and app.status.over and app.status.winner is Faction.MILIZIA
    screen = app.machine.current
    steps = len(app.status.notes)
    assert [item.label for item in screen.items][:2] == ["Next step", "Play again"]
    for _ in range(steps - 1):
        feed(app, key("n"))
    assert [item.label for item in screen.items][0] == "Play again"
    feed(app, key("u"))  # the count taken back, to be entered again
    assert not app.status.over and app.status.phase is Phase.END
    feed(app, key("y"), key("p"))  # redone; Play again: the same table, a new game beside it
    assert app.status.round == 1 and app.status.factions == tuple(Faction(f) for f in FACTIONS)
    with StateFile(tmp_path / "table.db") as games:
        assert [(g.kind, g.current) for g in games.games()] == [("status", False), ("status", True)]
    app.close()


def test_a_new_game_is_chosen_nova_aetas_or_status_with_its_table(shots: Path) -> None:
    for size in SIZES:
        surface = pygame.display.set_mode(size)
        for kind in ("status", "mission"):
            fonts = Fonts()
            hits = draw_chooser(surface, fonts, new_game_form(kind), "Mano Invisibile is at the table twice")
            pygame.image.save(surface, shots / f"status-new-{kind}-{size[0]}x{size[1]}.png")
            assert fonts.squeezed == [] and all(surface.get_rect().contains(hit.rect) for hit in hits)
            assert not any(a.rect.colliderect(b.rect) for i, a in enumerate(hits) for b in hits[i + 1 :])
    form = new_game_form("mission")
    assert handle(form, Action("confirm"), []) == ("", None) and form.focus == APPLY  # the Game, then Start
    assert handle(form, Action("confirm"), []) == ("start", {"game": "mission"})
    form = new_game_form("status")
    for action in ("confirm", "confirm", "confirm"):  # Game, Seat 1, Seat 2: to Seat 3 (the Milizia)
        handle(form, Action(action), [])
    handle(form, Action("turn", 1), [])  # Milizia -> Pugno del Popolo (nobody, Mano, Ragione, Milizia, Pugno)
    handle(form, Action("confirm"), [])
    handle(form, Action("turn", 1), [])  # Seat 4: nobody -> Mano Invisibile, at the table twice
    for _ in range(3):  # Priority, Start, and Start pressed
        went = handle(form, Action("confirm"), [])
    assert went == ("error", "Mano Invisibile is at the table twice")
    form.get("seat3").turn(-1)  # type: ignore[call-arg]  # nobody again
    form.get("priority").turn(2)  # type: ignore[call-arg]  # Mano, Ragione, Pugno: the Pugno holds it
    form.refresh()
    assert handle(form, Action("confirm"), []) == ("start", {"game": "status", "factions": ["mano", "ragione", "pugno"],
                                                            "priority": "pugno"})  # fmt: skip
    assert handle(new_game_form(), Action("back"), []) == ("back", None)


def test_play_status_starts_a_saved_game_of_status_and_a_wrong_table_starts_nothing(tmp_path: Path) -> None:
    from tests.ui.test_command import nova

    state, shot = tmp_path / "table.db", tmp_path / "shot.png"
    process = nova("play", "--state", str(state), "--status", "pugno,mano,milizia", "--priority", "milizia",
                   "--screenshot", str(shot))  # fmt: skip
    assert process.wait(60) == 0 and shot.stat().st_size > 0
    with StateFile(state) as games:
        (game,) = games.games()
        assert (game.kind, game.title) == ("status", "Status: Pugno del Popolo, Mano Invisibile, Nuova Milizia")
        assert games.journal(None).state.to_play is Faction.MILIZIA
    for args, says in ((("--status", "mano,mano"), "nova-table: the table: factions[1]: Mano Invisibile is at the table twice"),
                       (("--priority", "mano"), "nova-table: --priority: only with --status")):  # fmt: skip
        process = nova("play", "--state", str(state), *args, "--screenshot", str(shot))
        assert process.wait(60) == 1
        assert process.stderr is not None and says in process.stderr.read()
    with StateFile(state) as games:
        assert len(games.games()) == 1


def test_a_cost_that_cannot_be_paid_is_refused_on_the_screen_and_nothing_is_stored(tmp_path: Path) -> None:
    app = started(tmp_path, EVENTS[:4])
    feed(app, key("f"), key("right"), key("return"), key("return"))  # Status; the Ragione (whose turn it is)
    assert app.form is not None
    by = app.form.get("by")
    assert isinstance(by, Number)
    by.set(-2)
    feed(app, key("return"), key("right"), key("return"), key("return"))  # By -2; A Cost: yes; Move
    assert app.error == "Refused: Ragione di Stato has 1 Status points: it cannot lose 2 to pay the Cost"
    assert app.form is not None and app.status.count == 5 and app.game.events() == EVENTS[:4]  # (start + 4)
    app.fonts.squeezed.clear()
    app.draw()
    assert app.fonts.squeezed == []
    feed(app, key("backspace"), key("left"), key("return"), key("return"))  # back to A Cost: no; a loss stops at 0
    assert app.form is None and app.status.status[Faction.RAGIONE] == 0 and app.error == ""
    app.close()


def test_start_again_after_a_damaged_game_of_status_sets_the_same_table_anew(tmp_path: Path) -> None:
    from assistant.ui.table import start_again

    app = started(tmp_path, EVENTS[:3])
    app.close()
    with StateFile(tmp_path / "table.db") as games:
        games.db.execute("UPDATE events SET body = '{\"type\": \"send_official\", \"faction\": \"mano\"' WHERE seq = 2")
        with pytest.raises(Exception, match="stored event 2 is damaged"):
            games.journal(None)
    again = start_again(tmp_path / "table.db")
    assert again.kind == "status" and cast(StatusGame, again.state).count == 1 and cast(StatusGame, again.state).factions == tuple(Faction(f) for f in FACTIONS)
    again.close()
    with StateFile(tmp_path / "table.db") as games:
        assert [(g.id, g.kind, g.head, g.current) for g in games.games()] == [(1, "status", 3, False), (2, "status", 0, True)]


@pytest.fixture
def pygame_again() -> Any:
    """`play` ends with pygame.quit(): the tests after it find pygame as tests/ui/conftest.py left it."""
    yield
    pygame.init()


@pytest.mark.usefixtures("pygame_again")
def test_play_with_no_game_to_resume_asks_which_game_on_a_screen_and_then_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """As on the Pi (a screen someone sees: the dummy driver under another name): the first `play` asks which game;
    the encoder turns it to Status and presses through the table's seats to Start; the next `play` resumes it."""
    from assistant.cli import main
    from assistant.ui import display, new_game
    from assistant.ui.inputs import post_encoder

    state = tmp_path / "table.db"
    asked: list[str] = []
    real_open, real_choose = display.open_screen, new_game.choose_game

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    def choose(surface: Any, kind: str = "mission", offers: Any = ()) -> dict[str, Any] | None:
        asked.append(kind)
        post_encoder("turn", -1)  # Game: Status (the last of the start screen's games, after the campaign sheet)
        for _ in range(7):  # Game, Seats 1 to 4, Priority, Start
            post_encoder("confirm")
        chosen = real_choose(surface, kind, offers)
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # then the table, closed at once
        return chosen

    monkeypatch.setattr(display, "open_screen", seen)
    monkeypatch.setattr(new_game, "choose_game", choose)
    assert main(["play", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    pygame.display.init()  # (play ends with pygame.quit)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert main(["play", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    assert asked == ["mission"]  # asked once: the second play resumed the game
    with StateFile(state) as games:
        (game,) = games.games()
        assert (game.kind, game.current) == ("status", True)
        assert games.journal(None).state.factions == tuple(Faction(f) for f in FACTIONS)


# Round 1, Phase II: the Mano sends a ? to card 1 (where the Ragione shows a 2), its 1 and 3 face up and a ? to card
# 3; so its ? on card 1 is its 2 or its 4 (a 2: a tie with the Ragione; a 4: the Mano takes the card).
PLACED = [
    {"type": "send_official", "faction": f, "card": c, "value": v}
    for row in ((("mano", 1, None), ("ragione", 1, 2), ("milizia", 2, 1)),
                (("mano", 3, 1), ("ragione", 2, 1), ("milizia", 2, 2)),
                (("mano", 3, 3), ("ragione", 2, 3), ("milizia", 2, 3)),
                (("mano", 3, None), ("ragione", 2, 4), ("milizia", 2, 4)))
    for f, c, v in row
] + [{"type": "advance"}]  # fmt: skip


def test_a_face_down_official_is_offered_only_the_values_its_faction_does_not_show_face_up(tmp_path: Path) -> None:
    """Issue 62, 8: the card's "?" could take a 1 or a 3 the Mano shows face up on card 3 (Personal Components: "4
    Official pawns ... numbered 1 to 4"). Turned through every option by the arrow key, it offers its 2 and its 4."""
    app = started(tmp_path, PLACED)
    feed(app, key("r"))
    assert app.form is not None and app.form.title == "Card 1"
    seen = []
    for _ in range(4):
        field = app.form.fields[app.form.focus.field]
        assert isinstance(field, Choice)
        seen.append(field.value)
        feed(app, key("right"))
    assert {tuple(v) if isinstance(v, tuple) else (v,) for v in seen} == {(2,), (4,)}
    app.close()


FOUR = ("mano", "ragione", "milizia", "pugno")
PLACED_FOUR = [  # each of four a ? on card 1, its 1 and 3 on card 2, a ? on card 3: each ? on card 1 is a 2 or a 4
    {"type": "send_official", "faction": f, "card": c, "value": v}
    for c, v in ((1, None), (2, 1), (2, 3), (3, None)) for f in FOUR
] + [{"type": "advance"}]  # fmt: skip


@pytest.mark.parametrize(("events", "factions"), [(PLACED, FACTIONS), (PLACED_FOUR, FOUR)])
@pytest.mark.parametrize("size", SIZES)
def test_the_reward_row_keeps_its_place_as_who_takes_the_card_changes(
        tmp_path: Path, size: tuple[int, int], events: list[dict[str, Any]], factions: tuple[str, ...]) -> None:  # fmt: skip
    """Issue 62, 5: the form's rows dropped as its note grew with who takes the card ("a tie, ... moves back"), and a
    tap on Reward missed. The Mano's ? set from a tie (its 2) to its 4, then a tap where Reward's > was: it takes it.
    With four Factions, five rows: the words under them kept their room, the rows gave it up before."""
    app = started(tmp_path, events, size, factions)
    feed(app, key("r"))
    assert app.form is not None and "a tie" in preview(app.status, app.form)
    reward = app.form.fields.index(app.form.get("reward"))
    before = next(hit.rect for hit in app.hits if hit.target == ("stop", Stop(reward), 1))
    feed(app, key("right"))  # the Mano's ? is its 4: it takes the card, no tie
    assert "Mano Invisibile takes it" in preview(app.status, app.form)
    assert next(hit.rect for hit in app.hits if hit.target == ("stop", Stop(reward), 1)) == before
    feed(app, click(before.center))
    assert app.form.value("reward") == 1
    app.close()


def drawn(app: StatusApp, area: pygame.Rect, words: str, color: theme.Color) -> bool:
    """Whether `words` are on the screen in `area`, in `color`, at a size the app rendered them at (its fonts' cache:
    a search of one size at a time, fast)."""
    for size in sorted({key[1] for key in app.fonts._images if key[0] == words and key[2] == color}):
        fonts = Fonts()
        fonts.least = size  # that size only
        if find_text(app.surface, area, words, size, color, fonts) is not None:
            return True
    return False


@pytest.mark.parametrize("factions", [FACTIONS, ("mano", "ragione", "milizia", "pugno")])
@pytest.mark.parametrize("size", SIZES)
def test_a_card_with_every_official_on_it_shows_them_all_lettered_and_its_form_fits(
        tmp_path: Path, size: tuple[int, int], factions: tuple[str, ...], shots: Path) -> None:  # fmt: skip
    """Issue 62, 8: a card with 12 Officials drew 6 to 8 of them, and its form (a row a "?") ran under Back and
    Resolve. Now a chip a Faction with its letters and its "?"s, and a row a Faction in the form (16 with four)."""
    full = [{"type": "send_official", "faction": f, "card": 1, "value": None} for _ in range(4) for f in factions]
    app = started(tmp_path, [*full, {"type": "advance"}], size, factions)
    app.draw()
    pygame.image.save(app.surface, shots / f"status-full-card-{len(factions)}-{size[0]}x{size[1]}.png")
    board, panel = regions(app.layout)
    for faction in factions:
        chip = f"{LETTERS[Faction(faction)]} ? ? ? ?"
        assert drawn(app, board, chip, theme.ink_for(FACTION_COLORS[Faction(faction)])), chip
    feed(app, key("r"))
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"status-full-card-form-{len(factions)}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    assert app.form is not None
    assert [f.label for _, f in app.form.visible()] == [f"{SHORT[Faction(f)]} 4 ?" for f in factions] + ["Reward"]
    back = next(hit.rect for hit in app.hits if hit.target == ("back",))
    rows = [hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1] != APPLY]
    assert rows and all(panel.contains(r) and r.bottom <= back.top for r in rows)
    assert app.form.focus == Stop(app.form.fields.index(app.form.get("reward")))  # nothing else to set
    feed(app, key("return"), key("return"))  # Reward 0; Resolve
    assert app.form is None and app.status.notes[0].startswith("Card 1: ") and app.status.notes[0].count(" 10") == len(factions)
    app.close()


def test_the_board_shows_each_score_as_a_number_and_a_letter_on_every_disc(tmp_path: Path) -> None:
    """Issue 62, 8: the Factions' discs covered the Status track's numbers and shared spaces drew unlettered discs
    (the Mano's green and the Milizia's red, alike in deuteranopia). Set-up: all three on Status 1."""
    from tests.ui.colour_vision import difference

    assert difference(FACTION_COLORS[Faction.MANO], FACTION_COLORS[Faction.MILIZIA], "deuteranopia") < 25  # why letters
    app = started(tmp_path, EVENTS[:4])
    feed(app, key("f"), key("right"), key("return"), key("return"), key("3"), key("return"), key("return"), key("return"))
    assert app.status.status == {Faction.MANO: 1, Faction.RAGIONE: 4, Faction.MILIZIA: 1}  # the Ragione: +3 Status
    app.draw()
    board, _ = regions(app.layout)
    for faction, points in app.status.status.items():
        assert drawn(app, board, f"{SHORT[faction]} {points}", FACTION_COLORS[faction]), faction
    track = pygame.Rect(board.left, board.top + board.height // 4, board.width, board.height // 4)  # the Status track
    for faction in (Faction.MANO, Faction.MILIZIA):  # the two on space 1, each lettered
        assert drawn(app, track, LETTERS[faction], theme.ink_for(FACTION_COLORS[faction])), faction
    app.close()
