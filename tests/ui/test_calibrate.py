"""Calibrating the dice camera from the table app: Fix, Calibrate dice; d6 or d8; each face shown to the rendered
stand-in camera (which plays the player); learning with a progress bar (a fine-tune of a few steps here); the
held-out check; Use it writes the profile where `play` reads it and the camera reads with it."""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.ui.app import App
from assistant.ui.calibrate_screen import CalibrateScreen
from assistant.ui.calibrate_work import Learned, Progress, Work, default_profile
from assistant.ui.calibrate_words import check_words
from assistant.ui.devices import TableCamera, attach_camera
from assistant.ui.form import APPLY, Reading
from assistant.ui.inputs import post_dice, post_encoder
from assistant.ui.theme import DANGER, TEXT
from tests.ui.conftest import click, key, make_app
from tests.ui.pixels import find_text

pytest.importorskip("assistant.vision.guide")
from assistant.vision.guide import Asked, Guide, Seen, calibrate  # noqa: E402
from assistant.vision.heldout import Comparison, Tally  # noqa: E402
from assistant.vision.profile import Profile, load  # noqa: E402
from assistant.vision.reader import DiceReader  # noqa: E402
from assistant.vision.snapshots import Snapshots  # noqa: E402
from assistant.vision.sources import RenderedSource  # noqa: E402

LONG = 1800.0  # seconds: only a hung calibration waits this long (a loaded machine is slow, never this slow)
SIZES = [(800, 480), (720, 1280)]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder, where the calibration writes the table's own dice."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "nova-table"


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A views folder where every d6 face was shown once (to the rendered stand-in, as `dice calibrate` does)."""
    folder = tmp_path_factory.mktemp("shown") / "dice-views"
    assert calibrate(RenderedSource(seed=21), DiceReader("d6"), "d6", Snapshots(folder), lambda said: None, views=1) == []
    return folder


def screen_of(app: App) -> CalibrateScreen:
    screen = app.machine.screens["calibrate"]
    assert isinstance(screen, CalibrateScreen)
    return screen


def pump_until(app: App, done: Callable[[], bool], each: Callable[[], None] = lambda: None) -> None:
    """Run the real loop's passes until `done` (the threads post what they do; the loop takes it)."""
    app.running = True
    end = time.monotonic() + LONG
    while not done():
        assert time.monotonic() < end, f"still on {screen_of(app).page} after {LONG:g} s"
        app.pump(100)
        each()


def post(app: App, *events: pygame.event.Event) -> None:
    """Inputs into the real loop, each taken in a pass of its own (as a player's are)."""
    app.running = True
    for event in events:
        pygame.event.post(event)
        app.pump()


def to_calibration(app: App) -> CalibrateScreen:
    """Fix (F), the Change field turned back once (its last choice: Calibrate dice), then Enter to Apply and Enter."""
    post(app, key("f"), key("left"))
    assert app.form is not None and app.form.value("what") == "calibrate"
    assert [f.key for _, f in app.form.visible()] == ["what"]  # no hero, no amount: nothing of the game
    post(app, key("return"), key("return"))
    assert app.machine.current.name == "calibrate" and app.form is None
    return screen_of(app)


def camera_at(app: App, seed: int, kind: str = "auto") -> TableCamera:
    attach_camera(app, f"render:{seed}", kind=kind)
    assert app.camera is not None
    return app.camera


def saved(app: App, shots: Path, name: str) -> None:
    """The screen drawn and saved; nothing on it cut, outside it, or drawn over another part."""
    app.fonts.squeezed.clear()
    app.draw()
    size = app.surface.get_size()
    pygame.image.save(app.surface, shots / f"calibrate-{name}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == [], f"cut to fit: {app.fonts.squeezed}"
    parts = screen_of(app).drawn
    bounds = pygame.Rect(0, 0, *size)
    assert len(parts) >= 3 and all(bounds.contains(part) for part in parts)
    for n, part in enumerate(parts):
        assert part.collidelist(parts[n + 1 :]) == -1, f"{part} overlaps {parts[part.collidelist(parts[n + 1:]) + n + 1]}"
    assert all(bounds.contains(hit.rect) for hit in app.hits)


def heard(screen: CalibrateScreen, monkeypatch: pytest.MonkeyPatch,
          after: Callable[[Any], None] = lambda message: None) -> list[Any]:
    """Every message of the calibration's threads the screen takes, in order; `after` each is taken."""
    messages: list[Any] = []
    real = screen.heard

    def hearing(app: App, work: Any, message: Any) -> str | None:
        messages.append(message)
        went = real(app, work, message)
        after(message)
        return went

    monkeypatch.setattr(screen, "heard", hearing)
    return messages


def test_from_fix_to_a_profile_the_camera_reads_with(data: Path, shots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole way, by keys, taps and the encoder: every d6 face shown once to the stand-in, learned in two
    steps a fine-tune, the check said, Use it: the profile is where `play` reads it, and the camera reads with it."""
    app = make_app((800, 480))
    assert app.act({"type": "threat", "hero": app.game.state.heroes[0].id, "delta": 1})  # a game under way
    before = app.game.events()
    table_camera = camera_at(app, 4)
    screen_of(app).views, screen_of(app).steps = 1, 2
    screen = to_calibration(app)
    assert screen.page == "choose" and screen.form is not None and screen.form.value("kind") == "d6"
    assert screen.form.note == ("Show the camera each face of your d6, 1 time, when asked; then it learns them "
                                "(a few minutes).")
    saved(app, shots, "d6-choose")
    shot: list[str] = []

    def look(message: Any) -> None:
        """The first view kept, drawn as it comes (its dice boxed on the view at rest), and the bar moving."""
        asked = screen.asked
        if "show" not in shot and isinstance(message, Seen) and message.kept:
            assert screen.still and screen.frame is not None and asked is not None
            saved(app, shots, "d6-show")
            assert find_text(app.surface, app.layout.panel, f"Show {asked.value}: view 1 of 1", app.layout.px(30), TEXT)
            shot.append("show")
        if "learn" not in shot and isinstance(message, Progress):
            saved(app, shots, "d6-learn")
            shot.append("learn")

    messages = heard(screen, monkeypatch, look)
    start = next(hit for hit in app.hits if hit.target == ("stop", APPLY, 0))
    post(app, click(start.rect.center))  # a tap on Start
    assert screen.page == "show" and screen.kind == "d6"
    pump_until(app, lambda: screen.page not in ("show", "learn"))
    assert screen.page == "result", screen.message
    assert shot == ["show", "learn"]
    asked = [m for m in messages if isinstance(m, Asked)]
    kept = [m for m in messages if isinstance(m, Seen) and m.kept]
    assert [(a.kind, a.value, a.view) for a in asked] == [("d6", face, 1) for face in range(1, 7)]
    assert [seen.value for seen in kept] == [1, 2, 3, 4, 5, 6]
    # each step of both learns moved the bar: the check's, the finder's two steps (a fifth of the bar), then the face
    # network's two; then the profile's, going on from the check's networks: a third of each, one step
    assert [(m.phase, round(m.share, 6)) for m in messages if isinstance(m, Progress)] == [
        (0, 0.1), (0, 0.2), (0, 0.6), (0, 1.0), (1, 0.2), (1, 1.0)]
    assert screen.learned is not None and screen.learned.check is not None  # 6 views: one held out
    judged = check_words(screen.learned.check)[1]
    saved(app, shots, "d6-result")
    assert find_text(app.surface, app.layout.panel, "Your d6, learned", app.layout.px(30),
                     DANGER if judged == "worse" else TEXT)
    post(app, key("u"))  # Use it
    where = data / "dice.profile.json"
    assert where == default_profile() and app.machine.current.name == "table"
    profile = load(where)
    assert profile.faces.keys() == {f"d6:{face}" for face in range(1, 7)} and profile.check
    manifest = data / "dice-views" / "manifest.jsonl"
    assert len(manifest.read_text().splitlines()) == 6
    assert app.camera is not None and app.camera is not table_camera
    assert (app.camera.source, app.camera.kind, app.camera.profile) == ("render:4", "auto", where)
    assert app.error == "Dice calibrated: the camera reads your d6 with what it learned."
    assert app.game.events() == before  # the game was never touched
    pump_until(app, lambda: app.fresh_dice() is not None)  # the camera reads again, with the profile learned
    app.close()


def test_cancel_while_the_faces_are_shown_keeps_the_views_and_the_camera_reads_as_before(data: Path) -> None:
    app = make_app((800, 480))
    before = app.game.events()
    camera_at(app, 5, kind="d8")
    screen_of(app).views = 2
    screen = to_calibration(app)
    assert screen.form is not None and screen.form.value("kind") == "d8"  # the game's dice
    post(app, key("return"), key("return"))
    pump_until(app, lambda: screen.seen is not None and screen.seen.kept)
    post(app, key("backspace"))  # Back: the camera is let go first
    pump_until(app, lambda: app.machine.current.name == "table")
    assert app.camera is not None and (app.camera.source, app.camera.kind, app.camera.profile) == ("render:5", "d8", None)
    assert not default_profile().exists()
    lines = [json.loads(line) for line in (data / "dice-views" / "manifest.jsonl").read_text().splitlines()]
    assert lines and {d["value"] for d in lines[0]["dice"]} == {1}  # the view kept stays: the next time goes on
    assert app.game.events() == before
    app.close()


def test_cancel_while_learning_writes_nothing(data: Path, shown: Path) -> None:
    """Every face shown before: Start learns at once (here without end); Cancel, the encoder's press on it."""
    shutil.copytree(shown, data / "dice-views")
    app = make_app((800, 480))
    camera_at(app, 6)
    screen_of(app).views, screen_of(app).steps = 1, 40
    screen = to_calibration(app)
    assert screen.form is not None and screen.form.note.endswith(
        "Every face was shown before: every face asked again; the views before are not learned from.")
    post(app, key("return"), key("left"))  # Views: go on (from those shown before)
    assert screen.form.note.endswith("Every face was shown before: it learns from those views again.")
    post(app, key("return"), key("return"))
    pump_until(app, lambda: screen.page == "learn" and screen.progress.share > 0)
    post_encoder("confirm")  # the focus is on Cancel
    pump_until(app, lambda: app.machine.current.name == "table")
    assert not default_profile().exists() and screen.work is None
    assert app.camera is not None and app.camera.profile is None and app.error == ""
    app.close()


def test_show_anew_leaves_the_views_before_of_that_kind_out(data: Path, shown: Path) -> None:
    shutil.copytree(shown, data / "dice-views")
    manifest = data / "dice-views" / "manifest.jsonl"
    d8 = '{"image": "images/other.png", "dice": [{"kind": "d8", "value": 3, "box": [1, 1, 9, 9]}]}\n'
    before = [json.loads(line)["image"] for line in manifest.read_text().splitlines()]
    assert len(before) == 6
    with manifest.open("a") as out:
        out.write(d8)  # a view of the other kind: it stays
    app = make_app((800, 480))
    camera_at(app, 7)
    screen_of(app).views = 1
    screen = to_calibration(app)
    assert screen.form is not None and screen.form.value("views") == "anew"
    post(app, key("return"), key("return"), key("return"))
    pump_until(app, lambda: screen.asked is not None)
    asked = screen.asked
    assert asked is not None and (asked.kind, asked.value, asked.view) == ("d6", 1, 1)  # face 1 again
    post(app, key("backspace"))
    pump_until(app, lambda: app.machine.current.name == "table")
    app.close()
    lines = manifest.read_text().splitlines(keepends=True)
    assert lines[0] == d8 and all(json.loads(line)["image"] not in before for line in lines[1:])  # views since: new
    assert all((data / "dice-views" / image).exists() for image in before)  # the pictures stay


@pytest.mark.parametrize("size", SIZES)
def test_without_a_camera_the_entry_says_so(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size)
    screen = to_calibration(app)
    assert screen.page == "message" and screen.title == "No camera"
    saved(app, shots, "no-camera")
    assert find_text(app.surface, app.layout.panel, "No camera", app.layout.px(30), TEXT)
    post_dice(Reading([3, 5]))  # dice read meanwhile (another camera's thread): kept for the next roll, as ever
    post_encoder("back")  # a hold of the encoder
    app.pump()
    assert app.machine.current.name == "table" and app.camera is None
    assert app.fresh_dice() == Reading([3, 5])


@pytest.mark.parametrize("size", SIZES)
def test_without_pytorch_it_says_how_to_add_it(size: tuple[int, int], shots: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # as if it were not installed
    app = make_app(size)
    app.camera = TableCamera("render:1", False, "auto", None, lambda: None)
    screen = to_calibration(app)
    assert screen.page == "message" and screen.title == "Learning needs PyTorch"
    assert screen.message.endswith("A maker adds it with: .venv/bin/pip install -e '.[learn]' in Nova Table's folder")
    saved(app, shots, "no-pytorch")
    assert find_text(app.surface, app.layout.panel, "Learning needs PyTorch", app.layout.px(30), DANGER)
    back = next(hit for hit in app.hits if hit.target == ("item", 0))
    post(app, click(back.rect.center))
    assert app.machine.current.name == "table"


@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits(size: tuple[int, int], shots: Path, tmp_path: Path, data: Path, shown: Path) -> None:
    """The pages drawn from real steps (the stand-in's frames, the reader's dice), at 800x480 and 720x1280."""
    shutil.copytree(shown, data / "dice-views")  # d6 shown before: the longest words, and the Views row
    app = make_app(size)
    app.camera = TableCamera("render:1", False, "auto", None, lambda: None)
    screen_of(app).views = 1
    screen = to_calibration(app)
    assert screen.form is not None and [f.key for _, f in screen.form.visible()] == ["kind", "views"]
    saved(app, shots, "choose")
    source = RenderedSource(seed=8)
    guide = Guide(source, DiceReader("d8"), "d8", Snapshots(tmp_path / "views"), views=5)
    steps = guide.steps()
    screen.page, screen.kind = "show", "d8"
    saved(app, shots, "starting")
    for step in steps:
        if isinstance(step, Asked):
            screen.asked = step
        else:
            screen.seen = step
            screen.frame = source.settled
            break
    assert screen.seen is not None and screen.seen.kept
    screen.still = True  # the camera's view is the view at rest: its dice drawn on it
    saved(app, shots, "show")
    screen.seen = Seen("d8", 1, screen.seen.found, None, "2 dice seen, 3 expected: spread them apart, all in view")
    saved(app, shots, "not-kept")
    screen.page, screen.progress = "learn", Progress(1, 0.4)
    saved(app, shots, "learn")
    for name, check in (("helps", Comparison(4, Tally(12, 3, 5), Tally(20, 0, 0), 8, 0)),
                        ("worse", Comparison(4, Tally(20, 0, 0), Tally(11, 6, 3), 0, 9)), ("none", None)):
        screen.work = Work()  # as the learning's thread says it is done
        screen.heard(app, screen.work, Learned(Profile(b""), check))
        assert screen.page == "result" and screen.work is None
        assert screen.focus == (1 if name == "worse" else 0)  # a profile that reads worse: the focus on Discard
        saved(app, shots, f"result-{name}")
    screen.error = "dice.profile.json: cannot write the profile (the folder is read-only)"
    saved(app, shots, "result-error")


def test_the_check_in_players_words() -> None:
    assert check_words(Comparison(4, Tally(12, 3, 5), Tally(20, 0, 0), 8, 0)) == (
        "Checked on 4 views it did not learn from: 20 of 20 dice read right with it, 12 without it (0 read wrong "
        "with it, 3 without). It reads your dice better: use it.", "helps")
    assert check_words(Comparison(1, Tally(25, 0, 0), Tally(25, 0, 0), 0, 0)) == (
        "Checked on 1 view it did not learn from: 25 of 25 dice read right with it, 25 without it. It reads them "
        "about as well as without it.", "same")
    assert check_words(Comparison(2, Tally(0, 1, 7), Tally(3, 3, 2), 3, 2)) == (  # 8 dice held out
        "Checked on 2 views it did not learn from: 3 of 8 dice read right with it, 0 without it (3 read wrong with "
        "it, 1 without). Too few dice to say whether it reads them better: show each face more times to be sure.",
        "unsure")
    assert check_words(Comparison(4, Tally(20, 0, 0), Tally(11, 6, 3), 0, 9))[1] == "worse"
    assert check_words(None) == ("Too few views to check it on views it did not learn from.", "")


def test_play_reads_the_tables_own_calibration_where_nothing_else_names_a_profile(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from argparse import Namespace

    from assistant.hardware.config import HardwareConfig
    from assistant.ui.command import camera_settings
    from assistant.vision.read import MODEL

    plain = Namespace(camera="render", camera_tray=None, dice_profile=None)
    assert camera_settings(plain, HardwareConfig()) == ("render", False, None)
    Profile(MODEL.read_bytes(), {"d6:3": 5}).save(default_profile())
    assert camera_settings(plain, HardwareConfig()) == ("render", False, data / "dice.profile.json")
    named = data.parent / "mine.json"
    Profile(MODEL.read_bytes(), {"d8:3": 5}).save(named)
    assert camera_settings(Namespace(camera="render", camera_tray=None, dice_profile=named), HardwareConfig())[2] == named
    default_profile().write_text("{}")  # damaged: said, and the dice are read without it
    assert camera_settings(plain, HardwareConfig())[2] is None
    assert capsys.readouterr().err.startswith(f"nova-table: the table's own calibration: {default_profile()}: ")


def test_a_camera_that_cannot_open_is_said_and_back_leaves(data: Path, tmp_path: Path, shots: Path) -> None:
    app = make_app((800, 480))
    stopped: list[bool] = []
    app.camera = TableCamera(f"folder:{tmp_path / 'gone'}", False, "d8", None, lambda: stopped.append(True))
    screen = to_calibration(app)
    post(app, key("return"), key("return"))
    pump_until(app, lambda: screen.page == "message")
    assert stopped == [True]  # the table's camera was let go first
    assert (screen.title, screen.message) == ("The camera stopped", f"{tmp_path / 'gone'}: no such folder. The views "
                                              "kept so far stay: calibrate again to go on from there.")
    saved(app, shots, "camera-stopped")
    post(app, key("b"))  # Back, by its letter
    assert app.machine.current.name == "table" and app.camera is not None and app.camera.source.startswith("folder:")
    app.close()


def test_learning_with_pytorch_broken_ends_saying_how_to_add_it(shown: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyTorch found on the path but not importable (the screen's first look is passed): the learning's process
    checks it as `dice learn` does, before the views are read, and ends saying so, no traceback for the journal."""
    from assistant.ui.calibrate_work import Failed, learn_apart
    from assistant.vision.pytorch import ADD

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setattr("assistant.vision.learn.entries_of", lambda *_a: pytest.fail("the views were read first"))

    class Out:
        said: list[object] = []

        def send(self, message: object) -> None:
            self.said.append(message)

        def close(self) -> None:
            pass

    out = Out()
    learn_apart(shown / "manifest.jsonl", 1, out)  # type: ignore[arg-type]  # what the process runs, here
    assert out.said == [Failed("learning the dice needs PyTorch (torch cannot be imported: import of torch halted; "
                               f"None in sys.modules): add it with {ADD}")]


@pytest.mark.parametrize(("crash", "said"), [
    ("illegal_instruction", "the learning's process was ended by SIGILL (Illegal instruction)."),
    ("raising", "RuntimeError: could not create a primitive descriptor for a convolution forward propagation primitive."),
])
def test_a_crash_of_the_learning_is_said_and_the_game_goes_on(crash: str, said: str, data: Path, shown: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The learning runs in a process of its own: PyTorch crashing it (a SIGILL on a CPU it was not built for, an
    error) ends that process; the screen says why, and the table, its game and its camera go on."""
    from assistant.ui import calibrate_work
    from tests.ui import crashing

    monkeypatch.setattr(calibrate_work, "learn_apart", getattr(crashing, crash))
    shutil.copytree(shown, data / "dice-views")
    app = make_app((800, 480))
    before = app.game.events()
    camera_at(app, 6)
    screen_of(app).views = 1
    screen = to_calibration(app)
    logged: list[str] = []
    monkeypatch.setattr(app, "log", logged.append)
    post(app, key("return"), key("left"), key("return"), key("return"))  # Views: go on; Start: it learns at once
    pump_until(app, lambda: screen.page not in ("show", "learn"))
    assert (screen.page, screen.title) == ("message", "Learning stopped")
    assert screen.message.startswith(said) and screen.work is None
    assert any("Traceback" in line for line in logged) == (crash == "raising")  # where it lay, for the journal
    back = next(hit for hit in app.hits if hit.target == ("item", 0))
    post(app, click(back.rect.center))
    assert app.machine.current.name == "table" and app.game.events() == before
    assert app.act({"type": "threat", "hero": app.game.state.heroes[0].id, "delta": 1})  # the game goes on
    pump_until(app, lambda: app.fresh_dice() is not None)  # and the camera reads again
    app.close()
