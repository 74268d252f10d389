"""Dice read by the camera (assistant.vision on rendered rolls) reach the open form through the seam."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.ui.devices import attach_camera
from assistant.ui.form import APPLY, Choice, Number, Reading, Stop
from tests.ui.conftest import click, feed, key, make_app, play
from tests.ui.test_reactions import encoder

FRAMES = 15


def roll_of(app: Any, count: int) -> None:
    """The open form's roll set to `count` dice, as the table sets Dice before rolling that many."""
    field = app.form.get("dice_count")
    assert isinstance(field, Number)
    field.set(count)


def test_settled_dice_from_the_camera_fill_the_attack_form() -> None:
    """The rendered stand-in throws the dice the open roll takes (this hero's Mastery: d8; as many as the form
    says), as players would, and they fill it."""
    watch = pytest.importorskip("assistant.vision.watch")
    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    roll = app.form.dice()
    assert roll is not None and app.rolling() == (f"d{roll.sides}", len(roll.values))
    asked = len(roll.values)
    assert asked > 0
    expected: list[list[tuple[str, int | None]]] = []

    def collect(reading: dict[str, Any]) -> None:
        if reading["dice"]:
            expected.append([(d["kind"], d["value"]) for d in reading["dice"]])

    # what the vision part reads from these rendered rolls, asked directly
    watch.watch("render:2", tray=False, kind="auto", profile_path=None, max_frames=FRAMES, emit=collect,
                rolling=lambda: (f"d{roll.sides}", asked))
    if not expected:
        pytest.skip("no roll settled in the first frames of this source")
    # every die read is of the roll's kind (one not read carries the reader's guess of a kind)
    assert {kind for reading in expected for kind, value in reading if value is not None} == {f"d{roll.sides}"}
    assert [len(reading) for reading in expected] == [asked] * len(expected)
    pygame.event.clear()
    attach_camera(app, "render:2", max_frames=FRAMES).join(60)  # the same rolls, on the camera's thread
    app.running = True
    app.pump()  # the loop takes the posted readings; the last one is in the form
    dice = app.form.dice()
    assert dice is not None and dice.source == "camera"
    assert dice.values == [value for _, value in expected[-1]]
    assert app.form.value("dice_count") == asked


def test_the_camera_reads_with_the_tables_profile_and_kind(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    watch = pytest.importorskip("assistant.vision.watch")
    asked: list[dict[str, Any]] = []
    monkeypatch.setattr(watch, "watch", lambda source, **options: asked.append(dict(options, source=source)))
    profile = Path("my-dice.profile.json")
    attach_camera(make_app(), "render:2", kind="d8", profile=profile, max_frames=1).join(10)
    assert asked == [{"source": "render:2", "tray": False, "kind": "d8", "profile_path": profile, "max_frames": 1,
                      "emit": asked[0]["emit"], "stop": asked[0]["stop"], "rolling": asked[0]["rolling"]}]
    app = make_app()  # the stand-in asks the app which roll is open
    attach_camera(app, "render:2", kind="auto", max_frames=1).join(10)
    assert asked[1]["kind"] == "auto" and asked[1]["rolling"] == app.rolling


def test_the_dice_already_posted_are_not_posted_again_and_each_reading_tells_which_dice_stayed(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The tray at rest again with no die rolled (a hand held over it, hiding a die; the table bumped)
    posts nothing, so a hidden die stays on the form; a reading where one die changed tells which did not."""
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.ui import devices

    def die(value: int | None, x: int, y: int) -> dict[str, Any]:
        return {"kind": "d6", "value": value, "confidence": 0.99, "box": [x, y, 50, 50]}

    rolled = {"dice": [die(6, 100, 100), die(None, 300, 100), die(3, 500, 100)]}
    readings = [rolled,
                {"dice": [die(6, 103, 98)]},  # a hand over two dice
                {"dice": [die(6, 101, 100), die(None, 299, 102), die(3, 500, 100)]},  # the hand gone: as they lay
                {"dice": [die(6, 101, 100), die(4, 299, 102), die(3, 500, 100)]},  # the middle die read now
                {"dice": []},  # nothing seen (the tray covered)
                {"dice": [die(2, 420, 300), die(5, 150, 350)]}]  # rolled again
    monkeypatch.setattr(watch, "watch", lambda source, **options: [options["emit"](r) for r in readings])
    posted: list[Reading] = []
    monkeypatch.setattr(devices, "post_dice", posted.append)
    attach_camera(make_app(), "render:2", max_frames=1).join(10)
    assert [(list(r.values), list(r.same)) for r in posted] == [
        ([6, None, 3], [None, None, None]), ([6, 4, 3], [0, None, 2]), ([2, 5], [None, None])]
    assert devices.unchanged([die(3, 500, 100), die(6, 100, 100)], rolled["dice"]) == [2, 0]
    assert devices.unchanged([die(6, 100, 100), die(1, 500, 400)], rolled["dice"]) == [0, None]  # a die added


def test_a_die_set_by_hand_keeps_its_value_when_the_camera_reads_another_die_anew(shots: Path) -> None:
    """The table fixes die 1 by hand; the camera then reads die 2, which it could not read before: the
    fix stays. Turning die 1 itself, or rolling again, brings the camera's value back. Fewer dice seen
    than the roll takes: the missing one is asked for, not dropped from the roll."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    dice = app.form.dice()
    assert dice is not None
    app.running = True
    roll_of(app, 3)
    post_dice(Reading([6, None, 3]))
    app.pump()
    app.draw()
    die_1 = next(h for h in app.hits if h.target == ("stop", Stop(app.form.fields.index(dice), 0), 1))
    feed(app, click(die_1.rect.center), key("5"))  # the camera's 6 was wrong: a tap on it, then 5 typed
    assert dice.values == [5, None, 3] and dice.hand == {0}
    post_dice(Reading([6, 4, 3], same=[0, None, 2]))  # the middle die read now; the others where they lay
    app.pump()
    assert dice.values == [5, 4, 3] and app.error == ""
    post_dice(Reading([2, 4, 3], same=[None, 1, 2]))  # die 1 turned by hand: the camera's value again
    app.pump()
    assert dice.values == [2, 4, 3] and dice.hand == set()
    feed(app, click(die_1.rect.center), key("1"))
    post_dice(Reading([4, 6], same=[None, None]))  # rolled again, and a die not found (hidden, or missed)
    app.pump()
    assert dice.values == [4, 6, None] and app.form.value("dice_count") == 3 and not dice.complete
    assert app.error == "Camera: 2 dice seen, this roll takes 3 (or lower Dice). Tap a die to set it."
    app.draw()
    pygame.image.save(app.surface, shots / "camera-die-not-found-800x480.png")
    assert app.fonts.squeezed == []  # every line of it fits
    post_dice(Reading([4, 6, 1], same=[0, 1, None]))  # found
    app.pump()
    assert dice.values == [4, 6, 1] and app.error == ""


def test_the_table_is_told_when_the_dice_reader_runs_slower_without_onnxruntime(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.vision import network

    monkeypatch.setattr(watch, "watch", lambda source, **options: None)
    said: list[str] = []
    for installed in (True, False):
        if not installed:
            monkeypatch.setattr(network, "onnxruntime", lambda: None)
        elif network.onnxruntime() is None:
            continue  # not installed here: only the second half applies
        app = make_app()
        app.log = said.append
        attach_camera(app, "render:2", kind="d8", max_frames=1).join(10)
    assert said[-1] == ("reading d8 from render:2 (onnxruntime is not installed: OpenCV runs the dice reader's "
                        "networks, about 2 times slower)")
    assert all(line == "reading d8 from render:2" for line in said[:-1])


def test_closing_the_app_ends_the_cameras_thread() -> None:
    """The camera's thread is not left inside OpenCV when the app ends (it could abort the process:
    "terminate called without an active exception", seen once in four SIGTERMs before)."""
    pytest.importorskip("assistant.vision.watch")
    app = make_app()
    thread = attach_camera(app, "render:2")  # rolls without end
    time.sleep(1.0)
    assert thread.is_alive()
    started = time.monotonic()
    app.close()
    assert not thread.is_alive() and time.monotonic() - started < 5


def test_a_video_that_runs_out_is_said_to_the_players(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The camera's thread ended with nothing said when a video or a folder of pictures had no more frames."""
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.ui import devices

    monkeypatch.setattr(watch, "watch", lambda source, **options: 0)  # every frame read, then no more
    said: list[str] = []
    monkeypatch.setattr(devices, "post_notice", said.append)
    journal: list[str] = []
    monkeypatch.setattr(devices, "post_board_message", journal.append)
    attach_camera(make_app(), "video:rolls.mp4").join(10)
    assert said == ["Camera stopped: set the dice by hand."]
    assert journal == ["camera video:rolls.mp4: no more frames, nothing more is read from it"]


def test_a_tables_profile_is_checked_before_the_game_starts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from assistant.ui.command import check_profile
    from assistant.vision.profile import Profile
    from assistant.vision.read import MODEL

    Profile(MODEL.read_bytes(), {"d6:3": 5}).save(tmp_path / "mine.json")
    check_profile(tmp_path / "mine.json", "--dice-profile")  # a network this reader runs: usable
    Profile(b"no network", {"d6:3": 5}).save(tmp_path / "broken.json")
    with pytest.raises(ValueError, match="--dice-profile: .*the face network cannot be loaded"):
        check_profile(tmp_path / "broken.json", "--dice-profile")
    (tmp_path / "old.json").write_text(json.dumps({"format": "nova-table-dice-profile", "version": 2, "examples": []}))
    with pytest.raises(ValueError, match="--dice-profile: .*learn it again"):
        check_profile(tmp_path / "old.json", "--dice-profile")


def test_the_hardware_files_camera_is_the_tables_unless_the_command_line_says_otherwise(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """[camera] in hardware.toml gives `play` its camera, tray and profile (a relative profile from the
    file's folder); --camera, --[no-]camera-tray and --dice-profile win over it; --camera none leaves it out."""
    import argparse

    from assistant.hardware.config import HardwareConfig, load_config
    from assistant.ui.command import add_arguments, camera_settings

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    from assistant.vision.profile import Profile
    from assistant.vision.read import MODEL

    shipped = tmp_path / "shipped.json"
    Profile(MODEL.read_bytes(), {"d6:3": 5}).save(shipped)
    (tmp_path / "dice").mkdir()
    (tmp_path / "dice" / "mine.json").write_bytes(shipped.read_bytes())
    settings = tmp_path / "hardware.toml"
    settings.write_text('[camera]\nsource = "render:3"\ntray = true\nprofile = "dice/mine.json"\n')
    config = load_config(settings)

    def chosen(*argv: str) -> tuple[str | None, bool, Path | None]:
        return camera_settings(parser.parse_args(list(argv)), config)

    assert chosen() == ("render:3", True, tmp_path / "dice" / "mine.json")
    assert chosen("--camera", "camera:1", "--no-camera-tray", "--dice-profile", str(shipped)) == ("camera:1", False, shipped)
    assert chosen("--camera", "none") == (None, False, None)
    assert camera_settings(parser.parse_args([]), HardwareConfig()) == (None, False, None)  # no file: no camera
    settings.write_text('[camera]\nsource = ""\nprofile = "dice"\n')  # "" is none, as for the profile
    assert camera_settings(parser.parse_args([]), load_config(settings)) == (None, False, None)
    for text, words in [('source = "telescope"', f"{settings}: [camera] source: telescope: unknown source"),
                        ('source = "render"\nprofile = "dice"', f"{settings}: [camera] profile: {tmp_path / 'dice'}: "
                                                                 "a folder, not a profile file"),
                        ('source = "camera:x"', f"{settings}: [camera] source: camera:x: camera:N needs a number"),
                        ('source = "auto"\nprofile = "nowhere.json"', f"{settings}: [camera] profile: "
                                                                          f"{tmp_path / 'nowhere.json'}")]:
        settings.write_text(f"[camera]\n{text}\n")
        with pytest.raises(ValueError) as refused:
            camera_settings(parser.parse_args([]), load_config(settings))
        assert str(refused.value).startswith(words), text
    with pytest.raises(ValueError, match="^--camera: telescope: unknown source"):
        chosen("--camera", "telescope")


def test_a_die_the_camera_could_not_read_stays_a_question_mark_until_the_table_sets_it(shots: Path) -> None:
    """Three dice seen, the middle one not read: the roll has three dice, one "?", and cannot be
    applied until a tap or the encoder sets it (never two dice, never a guess)."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    pygame.event.clear()
    roll_of(app, 3)
    post_dice(Reading([6, None, 3]))
    app.running = True
    app.pump()
    assert app.form.value("dice_count") == 3
    dice = app.form.dice()
    assert dice is not None and dice.values == [6, None, 3] and not dice.complete
    app.draw()
    pygame.image.save(app.surface, shots / "camera-unread-die-800x480.png")  # the Roll row: 6 ? 3
    dice.sides = 6
    assert app.form.fill_dice(Reading([2, 7, 5])) == "" and dice.values == [2, None, 5]  # a 7 is no d6's face: asked, not made a 6


def test_the_table_is_told_why_the_camera_could_not_read_a_die(monkeypatch, shots: Path) -> None:  # type: ignore[no-untyped-def]
    """A die partly out of view is a "?" like any die not read, and the screen says which and why, so the
    table can bring it into view (a die merely not sure: "?" alone)."""
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.vision.dice import CUT_NOTE, Die

    box = (10, 10, 40, 40)
    seen = [Die("d8", 6, 0.99, box), Die("d8", None, 0.3, box, note=CUT_NOTE), Die("d8", 3, 0.97, box),
            Die("d8", None, 0.6, box, note=CUT_NOTE), Die("d8", None, 0.5, box, note="doubtful d8:4")]
    monkeypatch.setattr(watch, "watch", lambda source, emit, **options: emit(
        {"frame": 1, "source": source, "dice": [die.to_json() for die in seen]}))
    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    pygame.event.clear()
    roll_of(app, 5)
    attach_camera(app, "render:2", max_frames=1).join(10)
    app.running = True
    app.pump()
    dice = app.form.dice()
    assert dice is not None and dice.values == [6, None, 3, None, None]
    assert app.error == "Camera: die 2 is partly out of view; die 4 is partly out of view. Tap a die to set it."
    app.draw()
    pygame.image.save(app.surface, shots / "camera-why-unread-800x480.png")
    again = [Die("d8", v, 0.99, (10 + 50 * v, 10, 40, 40)).to_json() for v in (5, 1, 2, 8, 7)]
    monkeypatch.setattr(watch, "watch", lambda source, emit, **options: emit({"dice": again}))
    attach_camera(app, "render:2", max_frames=1).join(10)  # the next roll, all read: nothing more to say
    app.pump()
    assert dice.values == [5, 1, 2, 8, 7] and app.error == ""


def test_a_screen_smaller_than_the_supported_ones_still_draws_the_notes_and_the_cameras_words() -> None:
    """480x320 (a 3.5-inch display) asks for type under the readable size: the notes are drawn at the
    readable size rather than not at all (they raised UnboundLocalError there before)."""
    from assistant.ui import theme
    from assistant.ui.inputs import post_dice

    app = make_app((480, 320))
    play(app, key("a"))  # the table screen drew its notes on the way
    assert app.form is not None
    pygame.event.clear()
    roll_of(app, 2)
    post_dice(Reading([6, None], "camera", [None, "is partly out of view"]))
    app.running = True
    app.pump()
    app.draw()
    assert app.error.startswith("Camera: die 2 is partly out of view")
    panel = app.surface.subsurface(pygame.Rect(240, 0, 240, 320))
    red = pygame.mask.from_threshold(panel, theme.DANGER, (40, 40, 40, 255)).count()
    assert red > 100  # the words are on the screen


def test_more_dice_than_a_roll_takes_fill_nothing_and_the_table_is_told(shots: Path) -> None:
    """18 dice seen for an attack of at most 12 (tokens on the tray read as dice?): which 12 to keep
    would be a guess, so the form keeps its dice and says why."""
    from assistant.ui.ai_forms import MAX_DICE
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    roll_of(app, 2)
    post_dice(Reading([3, 5]))
    post_dice(Reading([1, 2, 3, 4, 5, 6] * 3))
    app.running = True
    app.pump()
    dice = app.form.dice()
    assert dice is not None and dice.values == [3, 5] and app.form.value("dice_count") == 2
    assert app.error == (f"Camera: 18 dice seen, and a roll here takes at most {MAX_DICE}: is something else on the "
                         "tray? Tap the dice to set them.")
    app.draw()
    pygame.image.save(app.surface, shots / "camera-too-many-800x480.png")
    assert app.fonts.squeezed == []  # every line of it fits
    post_dice(Reading([4] * MAX_DICE))  # as many as it takes: filled, and Dice raised to them, said
    app.pump()
    assert dice.values == [4] * MAX_DICE and app.error == (
        f"Camera: {MAX_DICE} dice seen, this roll took 2: Dice raised (lower it if a die is not this roll's).")


def test_dice_read_while_a_form_without_dice_is_open_are_named_not_used() -> None:
    from assistant.ui.inputs import post_dice
    from assistant.ui.intents import make_form

    app = make_app()
    app.form = make_form("wait", app.game.state)
    app.machine.go(app, "form")
    post_dice(Reading([6, None, 2]))
    app.running = True
    app.pump()
    assert app.form.dice() is None and app.error == "Camera: dice read (6 ? 2); this form takes none."


def test_a_die_of_another_kind_than_the_roll_is_left_for_the_table(shots: Path) -> None:
    """A first-edition table rolls d6 and d8 (first-edition rulebook: Mastery D6 or D8): a d6 left on
    the tray beside this hero's d8 is not taken as a d8 result."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    dice = app.form.dice()
    assert dice is not None and dice.sides == 8  # Valerio's mastery: D8
    roll_of(app, 3)
    post_dice(Reading([7, 4, 2], "camera", [None, None, None], ["d8", "d6", "d8"]))
    app.running = True
    app.pump()
    assert dice.values == [7, None, 2]
    assert app.error == "Camera: die 2 is a d6, and this roll is of d8. Tap a die to set it."
    app.draw()
    pygame.image.save(app.surface, shots / "camera-other-kind-800x480.png")
    assert app.fonts.squeezed == []


def test_a_die_not_read_is_not_named_as_another_kind() -> None:
    """The reader reports a kind for a die it could not read (its best guess); the form names a die of
    another kind only where it was read: a "?" is never blamed on a kind the reader was not sure of."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    dice = app.form.dice()
    assert dice is not None and dice.sides == 8
    roll_of(app, 3)
    post_dice(Reading([None, 4, 2], "camera", [None, None, None], ["d6", "d8", "d8"]))
    app.running = True
    app.pump()
    assert dice.values == [None, 4, 2]
    assert app.error == ""
    post_dice(Reading([None, 4, 2], "camera", ["partly out of view", None, None], ["d6", "d8", "d8"]))
    app.pump()
    assert app.error == "Camera: die 1 partly out of view. Tap a die to set it."


def test_a_camera_lost_mid_game_is_said_looked_for_again_and_said_back(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A USB camera pulled out mid-game: the screen says so, the table plays on by hand, that camera is
    looked for again (`auto` is not asked again: it would give rendered dice; still out: nothing more
    said) and, plugged back, said back and read."""
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.ui import devices
    from assistant.vision import sources
    from assistant.vision.errors import SourceError
    from tests.vision.test_sources import write_video

    monkeypatch.setattr(sources, "DROPPED", 0.2)
    monkeypatch.setattr(devices, "AGAIN_SECONDS", 0.1)
    video = tmp_path / "roll.avi"
    write_video(video, list(sources.RenderedSource(seed=4, rolls=1, moving=3, still=6, style="pips").frames()))

    def camera() -> sources.CaptureSource:  # the roll through OpenCV, as camera 0 gives it
        source = sources.CaptureSource(str(video), size=None)
        source.live, source.name = True, "camera:0"
        return source

    def unplugged() -> sources.CaptureSource:
        raise SourceError("camera:0: OpenCV cannot open it")

    plugs = itertools.chain([camera, unplugged, unplugged, camera], itertools.repeat(unplugged))
    asked: list[str] = []

    def plug(spec: str, kind: str, rolling: object) -> sources.CaptureSource:
        asked.append(spec)
        return next(plugs)()

    monkeypatch.setattr(watch, "open_source", plug)
    said: list[str] = []
    monkeypatch.setattr(devices, "post_notice", said.append)
    logged: list[str] = []
    monkeypatch.setattr(devices, "post_board_message", logged.append)
    posted: list[Reading] = []
    monkeypatch.setattr(devices, "post_dice", posted.append)
    app = make_app()
    thread = attach_camera(app, "auto")  # which found camera 0
    deadline = time.monotonic() + 60
    while len(said) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert said == ["Camera lost (unplugged?): set the dice by hand.", "Camera back: reading the dice again.",
                    "Camera lost (unplugged?): set the dice by hand."]  # the second video's end: lost again
    assert logged[0] == "camera:0 gives no frames any more (unplugged?): looking for it every 0.1 s"
    assert len(posted) == 1  # the roll read before it was lost; read again as it lay: not posted again
    assert asked[0] == "auto" and set(asked[1:]) == {"camera:0"}  # the camera lost, not `auto` (rendered dice)
    time.sleep(0.3)
    assert len(said) == 3 and len(logged) == 2 and thread.is_alive()  # looked for; nothing more said while out
    app.close()
    assert not thread.is_alive()


def test_a_pi_camera_that_stalls_mid_game_is_looked_for_again_and_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pi camera stops giving frames (its ribbon cable worked loose) and fails to stop: the screen says
    it is lost, it is opened again (busy once: libcamera still letting go) and, giving frames, said back."""
    pytest.importorskip("assistant.vision.watch")
    from assistant.ui import devices
    from assistant.vision import picamera
    from tests.vision.test_picamera import StandInCamera, stand_in_camera_module

    monkeypatch.setattr(picamera, "STALLED", 0.2)
    monkeypatch.setattr(devices, "AGAIN_SECONDS", 0.1)

    class Stalls(StandInCamera):
        stall_after = 12
        fail_to_stop = True

    class Busy:
        def __init__(self) -> None:
            raise RuntimeError("Camera __init__ sequence did not complete.")

    cameras = iter([Stalls, Busy, StandInCamera])
    stand_in_camera_module(monkeypatch, lambda: next(cameras)())
    said: list[str] = []
    monkeypatch.setattr(devices, "post_notice", said.append)
    logged: list[str] = []
    monkeypatch.setattr(devices, "post_board_message", logged.append)
    monkeypatch.setattr(devices, "post_dice", lambda reading: None)
    app = make_app()
    attach_camera(app, "picamera")
    deadline = time.monotonic() + 60
    while len(said) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    app.close()
    assert said == ["Camera lost (unplugged?): set the dice by hand.", "Camera back: reading the dice again."]
    assert logged == ["picamera gives no frames any more (unplugged?): looking for it every 0.1 s"]


def test_a_camera_notice_is_shown_to_the_players_until_the_next_form_opens(shots: Path) -> None:
    """What the camera tells the players (lost, back) is on the screen, on the table and in an open form,
    not only in the journal; as a refusal is, until the next form opens (or a command is applied)."""
    from assistant.ui.inputs import post_notice

    app = make_app()

    def shown(notice: str, name: str) -> None:
        feed(app)
        app.draw()
        before = pygame.image.tobytes(app.surface, "RGB")
        post_notice(notice)
        app.pump()
        assert app.error == notice
        app.draw()
        assert pygame.image.tobytes(app.surface, "RGB") != before
        pygame.image.save(app.surface, shots / f"camera-{name}-800x480.png")

    shown("Camera lost (unplugged?): set the dice by hand.", "lost-table")
    feed(app, key("a"))  # an attack's form opens
    assert app.form is not None and app.error == ""
    shown("Camera back: reading the dice again.", "back-form")
    feed(app, encoder("back"))  # back to the table, where it still shows ...
    assert app.form is None and app.error == "Camera back: reading the dice again."
    feed(app, key("a"))  # ... until the next form opens
    assert app.error == ""


@pytest.mark.parametrize("size", [(800, 480), (480, 800), (1280, 800)])
def test_the_cameras_words_under_a_long_form_are_shown_whole_above_its_buttons(shots: Path, size: tuple[int, int]) -> None:
    """A psychic attack has seven rows: the rows give up height for the camera's words (two reasons, three
    lines), which were cut to their first line at 800x480 and not drawn at all at 480x800."""
    from assistant.ui import theme
    from assistant.ui.inputs import post_dice

    app = make_app(size)
    play(app, key("a"))
    assert app.form is not None
    kind = app.form.get("kind")
    assert isinstance(kind, Choice)
    kind.select("psychic")
    roll_of(app, 3)
    post_dice(Reading([None, 4, None], "camera", ["is partly out of view", None, "is partly out of view"]))
    app.running = True
    app.pump()
    assert app.error == "Camera: die 1 is partly out of view; die 3 is partly out of view. Tap a die to set it."
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"camera-words-psychic-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    back = next(h.rect for h in app.hits if h.target == ("back",))
    panel = app.layout.panel
    above = pygame.Rect(panel.left, panel.top, panel.width, back.top - panel.top)
    red = pygame.mask.from_threshold(app.surface.subsurface(above), theme.DANGER, (40, 40, 40, 255))
    rows = [y for y in range(above.height) if any(red.get_at((x, y)) for x in range(0, above.width, 2))]
    assert rows and rows[-1] - rows[0] >= 2 * app.fonts.MIN_READABLE  # two lines or more, all above Back


def test_a_tap_in_the_pass_the_cameras_dice_come_in_is_not_taken_for_one_on_them() -> None:
    """The form shows 5 5 2 8; a die is bumped as the player taps Attack: the new dice come in the same
    pass as the tap, which was aimed at the dice shown, so it is dropped; the next tap applies what is shown."""
    from assistant.rules import game as rules
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    roll_of(app, 4)
    app.running = True
    post_dice(Reading([5, 5, 2, 8]))
    app.pump()
    app.draw()
    start = app.game.state
    attack = next(h for h in app.hits if h.target == ("stop", APPLY, 0))
    post_dice(Reading([1, 1, 1, 1]))
    pygame.event.post(click(attack.rect.center))
    app.pump()
    assert app.game.state is start and app.form.value("dice") == [1, 1, 1, 1]  # shown, not applied
    post_dice(Reading([2, 2, 2, 2]))
    app.form.focus = APPLY
    pygame.event.post(encoder("confirm"))  # the encoder pressed (or Enter) as the dice change: dropped too
    app.pump()
    assert app.game.state is start and app.form.value("dice") == [2, 2, 2, 2]
    event = app.form.event()
    play(app, click(attack.rect.center))
    assert app.game.state == rules.apply(start, event) and event["dice"] == [2, 2, 2, 2]


def test_what_the_camera_said_goes_once_the_table_answers_it_by_hand() -> None:
    """"2 dice seen, this roll takes 3 (or lower Dice)": the table lowers Dice, and the words go with the
    question they asked; a refusal stays until the next form, whatever is edited."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    play(app, key("a"))
    assert app.form is not None
    roll_of(app, 3)
    app.running = True
    post_dice(Reading([3, 5]))
    app.pump()
    assert app.error == "Camera: 2 dice seen, this roll takes 3 (or lower Dice). Tap a die to set it."
    app.form.focus = Stop(app.form.fields.index(app.form.get("target")))
    play(app, encoder("turn", 1))  # another target: the roll is as it was, and so are the words
    assert app.error == "Camera: 2 dice seen, this roll takes 3 (or lower Dice). Tap a die to set it."
    count = app.form.fields.index(app.form.get("dice_count"))
    app.form.focus = Stop(count)
    play(app, encoder("turn", -1))
    assert app.form.value("dice") == [3, 5] and app.error == ""
    play(app, encoder("turn", 1))  # Dice 3 again: die 3 is "?"
    app.form.focus = APPLY
    play(app, encoder("confirm"))  # refused: the roll is not complete
    assert app.form is not None and app.error.startswith("Roll: 1 of 3 dice still to read")
    app.form.focus = Stop(count)
    play(app, encoder("turn", -1))
    assert app.error.startswith("Roll: 1 of 3 dice still to read")  # the table's own refusal stays


def test_dice_read_before_the_roll_is_opened_fill_it_until_the_game_changes() -> None:
    """Dice rolled before the attack is opened (the same dice are not posted twice, so they would never come
    again): the attack opens with them, and after Back again; once an event is applied they are old dice."""
    from assistant.ui.inputs import post_dice

    app = make_app()
    app.running = True
    post_dice(Reading([5, 2, 7, 1]))
    app.pump()
    assert app.form is None and app.said == ["Dice read (camera): 5 2 7 1; the next roll opened takes them"]
    play(app, key("a"))
    assert app.form is not None and app.form.name == "hero_attack" and app.form.value("dice") == [5, 2, 7, 1]
    assert app.error == ""
    play(app, encoder("back"))
    assert app.form is None
    play(app, key("a"))
    assert app.form is not None and app.form.value("dice") == [5, 2, 7, 1]  # after Back, the same dice
    app.form.focus = APPLY
    play(app, key("return"))
    assert app.form is None and app.game.state.count == 1  # the attack applied
    play(app, key("a"))
    assert app.form is not None and app.form.value("dice") == [None] * len(app.form.value("dice"))
    play(app, encoder("back"), key("u"))  # undone: the game as it was when the dice were read, but changed since
    assert app.game.state.count == 0
    play(app, key("a"))
    assert app.form is not None and app.form.value("dice") == [None] * len(app.form.value("dice"))


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_twelve_dice_take_the_whole_row_for_squares_a_finger_can_tap(shots: Path, size: tuple[int, int]) -> None:
    """Twelve dice beside the Roll label were 14 px squares at 800x480: with many dice the row drops its label."""
    from assistant.ui.ai_forms import MAX_DICE
    from assistant.ui.inputs import post_dice

    app = make_app(size)
    play(app, key("a"))
    assert app.form is not None
    app.running = True
    post_dice(Reading([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4][:MAX_DICE]))
    app.pump()
    app.draw()
    pygame.image.save(app.surface, shots / f"camera-twelve-dice-{size[0]}x{size[1]}.png")
    dice = [h.rect for h in app.hits if h.target[0] == "stop" and h.target[1] != APPLY
            and app.form.fields[h.target[1].field].key == "dice"]
    assert len(dice) == MAX_DICE and min(r.width for r in dice) >= 20  # under the camera's words (Dice raised)
    assert dice[0].left < app.layout.panel.left + app.layout.px(30)  # from the row's start: no label before them


def test_dice_raised_stays_until_read_or_the_next_input() -> None:
    """Issue 51, 8: the camera's "Dice raised" was replaced by the next frame's reading of the same dice (nothing to
    say of them): it stays `READ_SECONDS` of the app's clock (driven here), or until the table's next input."""
    from assistant.ui.inputs import post_dice
    from assistant.ui.screens import READ_SECONDS

    now = [100.0]
    app = make_app()
    app.clock = lambda: now[0]
    play(app, key("a"))
    assert app.form is not None
    roll_of(app, 2)
    raised = "Camera: 3 dice seen, this roll took 2: Dice raised (lower it if a die is not this roll's)."
    post_dice(Reading([4, 4, 4]))
    app.running = True
    app.pump()
    assert app.error == raised
    now[0] += READ_SECONDS - 0.5
    post_dice(Reading([4, 4, 4]))  # the same dice, next frame: nothing new to say
    app.pump()
    assert app.error == raised
    now[0] += 1.0  # read by now
    post_dice(Reading([4, 4, 4]))
    app.pump()
    assert app.error == ""
    post_dice(Reading([5, 5, 5, 5]))  # raised again; then an input (a turn of the encoder) before the next frame
    app.pump()
    assert app.error.startswith("Camera: 4 dice seen, this roll took 3: Dice raised")
    dice = app.form.dice()
    assert dice is not None and dice.values == [5, 5, 5, 5]
    feed(app, encoder("turn", 1))
    assert dice.values == [5, 5, 5, 5] and app.error.startswith("Camera: 4 dice seen")  # the roll not edited: still said
    post_dice(Reading([5, 5, 5, 5]))
    app.pump()
    assert app.error == "" and app.form is not None and app.form.value("dice_count") == 4
