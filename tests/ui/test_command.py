"""`nova-table play` as a process: the display fallback, SIGTERM, saving every action, bad files."""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from tests.ui.conftest import key, make_app, play
from tests.ui.demo import demo_scenario

ROOT = Path(__file__).resolve().parents[2]


def nova(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    environ = dict(os.environ if env is None else env)
    environ.pop("DISPLAY", None)
    environ.pop("WAYLAND_DISPLAY", None)
    environ["SDL_AUDIODRIVER"] = "dummy"
    return subprocess.Popen([sys.executable, "-m", "assistant", *args], cwd=ROOT, env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def wait_for_line(process: subprocess.Popen[str], words: str, seconds: float = 20) -> list[str]:
    """Lines of stderr until one holds `words`."""
    assert process.stderr is not None
    lines: list[str] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        if words in line:
            return lines
    raise AssertionError(f"no {words!r} in stderr: {lines}")


def test_with_no_display_it_falls_back_to_the_dummy_driver_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)  # the app must find out by itself that there is no display
    process = nova("play", "--state", str(tmp_path / "table.db"), "--board", "none", "--no-encoder", env=env)
    try:
        lines = wait_for_line(process, "game ")
        assert any("dummy video driver" in line for line in lines), lines
        assert process.poll() is None  # it stays up
        time.sleep(0.3)
        assert process.poll() is None
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert "SIGTERM" in (process.stderr.read() if process.stderr else "")


def test_a_missing_scenario_file_is_named_and_nothing_starts(tmp_path: Path) -> None:
    state = tmp_path / "table.db"
    process = nova("play", "--scenario", str(tmp_path / "nope.toml"), "--state", str(state), "--screenshot",
                   str(tmp_path / "x.png"))  # fmt: skip
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert "nope.toml" in err
    assert not (tmp_path / "x.png").exists() and not state.exists()


def test_a_broken_state_file_is_named_and_left_as_it_was(tmp_path: Path) -> None:
    pytest.importorskip("assistant.session.games")
    state = tmp_path / "table.db"
    state.write_bytes(b"this is not a database\n" * 50)
    before = state.read_bytes()
    process = nova("play", "--state", str(state), "--screenshot", str(tmp_path / "x.png"))
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert str(state) in err
    assert state.read_bytes() == before


def test_a_screenshot_that_cannot_be_written_is_refused_before_anything_opens(tmp_path: Path) -> None:
    state = tmp_path / "table.db"
    folder = tmp_path / "d"
    folder.mkdir()
    for target, why in ((folder, "a folder: write the screenshot to a file; nothing was written"),
                        (tmp_path / "nonexist" / "s.png", "cannot write a picture there (No such file or directory)")):
        process = nova("play", "--state", str(state), "--screenshot", str(target))
        out, err = process.communicate(timeout=30)
        assert process.returncode == 1
        assert err == f"nova-table: --screenshot {target}: {why}\n"
    assert not state.exists()  # no game was opened, so none was started
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("where", ["--board", "--hardware"])
def test_a_board_port_pyserial_does_not_know_is_not_used_and_the_table_plays_on(tmp_path: Path, where: str) -> None:
    """`--board bogus://x`, or a hardware file's `port = "bogus://x"`: said not used, as a port that is not there."""
    hardware = tmp_path / "hardware.toml"
    hardware.write_text('[board]\nport = "bogus://x"\n')
    chosen = ("--board", "bogus://x") if where == "--board" else ("--hardware", str(hardware))
    process = nova("play", "--state", str(tmp_path / "table.db"), "--no-encoder", *chosen)
    try:
        wait_for_line(process, "board on bogus://x not used: not a serial port or pyserial URL (invalid URL, protocol")
        time.sleep(0.3)
        assert process.poll() is None  # it stays up
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in (process.stderr.read() if process.stderr else "")


def test_every_action_is_in_the_state_file_before_it_is_shown_and_the_game_resumes(tmp_path: Path) -> None:
    pytest.importorskip("assistant.session.games")
    from assistant.session.games import StateFile

    from assistant.ui.table import open_saved_game

    path = tmp_path / "table.db"
    game = open_saved_game(path, None, new=False)
    app = make_app(game=game)  # type: ignore[arg-type]
    drawn: list[tuple[int, int]] = []  # (events in the state drawn, events in the file then)
    draw = app.draw

    def check_then_draw() -> None:
        # another connection reads the file, as the app restarted after a pulled plug would
        with StateFile(path) as other:
            drawn.append((app.game.state.count, other.journal(None).head))
        draw()

    app.draw = check_then_draw  # type: ignore[method-assign]
    app.running = True
    for event in (key("m"), key("1"), key("return"), key("return"), key("e"), key("u"), key("y")):
        pygame.event.post(event)
        app.pump()  # one pass of the main loop: handle the input, draw
    # M asks who is adjacent (nothing journaled); 1 (Nobody) journals the declared Move, the move form opens
    assert [shown for shown, _ in drawn] == [0, 1, 1, 2, 3, 2, 3]
    assert all(shown == saved for shown, saved in drawn), drawn
    app.close()
    with StateFile(path) as other:
        journal = other.journal(None)
        expected = rules.new_game(demo_scenario())
        for journaled in journal.events():
            expected = rules.apply(expected, journaled)
        assert journal.head == 3 and journal.state == expected
    resumed = open_saved_game(path, None, new=False)
    assert resumed.state == expected
    resumed.close()
    pygame.event.clear()


@pytest.mark.skipif(bool(glob.glob("/dev/dri/card*")), reason="this machine has a KMS/DRM device: kmsdrm may start")
def test_a_video_driver_that_cannot_start_falls_back_to_dummy_and_says_why(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="kmsdrm")  # no KMS/DRM device here: it must fail and fall back
    process = nova("play", "--memory", "--screenshot", str(tmp_path / "shot.png"), env=env)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "kmsdrm" in err and "dummy video driver" in err
    assert (tmp_path / "shot.png").stat().st_size > 10_000  # it still drew the table


def test_a_scenario_with_a_typo_is_refused_with_its_line(tmp_path: Path) -> None:
    pytest.importorskip("assistant.session.scenario_file")
    from assistant.ui.table import demo_path

    text = demo_path().read_text().replace("swiftness = 6", "swiftnes = 6", 1)
    scenario = tmp_path / "typo.toml"
    scenario.write_text(text)
    line = text.splitlines().index("swiftnes = 6") + 1
    process = nova("play", "--scenario", str(scenario), "--state", str(tmp_path / "t.db"), "--screenshot",
                   str(tmp_path / "x.png"))  # fmt: skip
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert f"typo.toml:{line}" in err and "swiftnes" in err
    assert not (tmp_path / "x.png").exists()
    assert not (tmp_path / "t.db").exists()  # no state file made for a game that does not start


def test_play_again_after_the_mission_ends_starts_a_new_saved_game(tmp_path: Path) -> None:
    pytest.importorskip("assistant.session.games")
    from assistant.session.games import StateFile

    from assistant.ui.table import open_saved_game

    path = tmp_path / "table.db"
    app = make_app(game=open_saved_game(path, None, new=False))  # type: ignore[arg-type]
    play_on = [key("f")] + [key("right")] * 5 + [key("return"), key("return")]  # Fix: "End: defeat", apply
    app.running = True
    for event in play_on:
        pygame.event.post(event)
        app.pump()
    assert app.game.state.over == "defeat"
    pygame.event.post(key("n"))  # Play again
    app.pump()
    assert app.game.state.over is None and app.game.state.count == 0
    app.close()
    with StateFile(path) as other:
        games = other.games()
        assert len(games) == 2 and games[0].head == 1 and games[1].current


def test_play_again_needs_no_scenario_file_on_disk(tmp_path: Path) -> None:
    from assistant.session.games import StateFile
    from assistant.ui.table import demo_path, open_saved_game

    scenario = tmp_path / "mission.toml"
    scenario.write_text(Path(demo_path()).read_text())
    path = tmp_path / "table.db"
    game = open_saved_game(path, scenario, new=True)
    first = game.state
    scenario.unlink()  # the card file is gone: the saved text is enough
    game.apply({"type": "end_mission", "result": "victory"})
    again = game.restart()
    assert again.over is None and again.count == 0
    assert again.to_dict() == first.to_dict()
    game.close()
    with StateFile(path) as other:
        text, source = other.scenario()
        assert source == str(scenario) and text == Path(demo_path()).read_text()
        assert len(other.games()) == 2


def test_a_dice_profile_whose_networks_are_swapped_is_named_and_nothing_starts(tmp_path: Path) -> None:
    """Valid ONNX, each matching its SHA-256, of the wrong shapes: refused at the start, not when the camera reads."""
    pytest.importorskip("onnx")
    from assistant.vision.profile import Profile
    from tests.vision import nets

    bad = tmp_path / "my-dice.profile.json"
    Profile(nets.finder(), {"d6:3": 5}, finder=nets.face()).save(bad)
    process = nova("play", "--state", str(tmp_path / "table.db"), "--camera", "render", "--dice-profile", str(bad),
                   "--screenshot", str(tmp_path / "x.png"))  # fmt: skip
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and "Traceback" not in err, err
    assert err.startswith(f"nova-table: --dice-profile: {bad}: the face network does not fit the reader (fed "), err
    assert "; the finder network does not fit the reader (fed " in err and err.rstrip().endswith(": learn it again")
    assert not (tmp_path / "x.png").exists()
    assert not (tmp_path / "table.db").exists()  # no game made before the refusal


def test_a_dice_profile_or_camera_that_is_not_one_is_named_and_nothing_starts(tmp_path: Path) -> None:
    state = tmp_path / "table.db"
    bad = tmp_path / "my-dice.profile.json"
    bad.write_text('{"format": "something else"}')
    process = nova("play", "--state", str(state), "--camera", "render", "--dice-profile", str(bad),
                   "--screenshot", str(tmp_path / "x.png"))  # fmt: skip
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert "--dice-profile" in err and str(bad) in err and "not a dice profile" in err
    assert not (tmp_path / "x.png").exists()
    settings = tmp_path / "hardware.toml"
    settings.write_text('[camera]\nsource = "picamra"\n')
    process = nova("play", "--state", str(state), "--hardware", str(settings), "--screenshot", str(tmp_path / "x.png"))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err.startswith(f"nova-table: {settings}: [camera] source: picamra: unknown source")
    assert not (tmp_path / "x.png").exists()


def test_the_camera_reads_the_dice_the_game_rolls(tmp_path: Path) -> None:
    """The demo is a Renaissance game: its camera reads d8 only; a first-edition game's reads d6 and
    d8; --dice-kind overrides either. Each says so on stderr as the camera starts. The camera is named
    by --camera or by the hardware file's [camera]."""
    classic = Path(__file__).resolve().parent / "scenarios" / "classic.toml"
    settings = tmp_path / "hardware.toml"
    settings.write_text('[camera]\nsource = "render:1"\n')
    for extra, said in ((("--hardware", str(settings)), "reading d8 from render:1"),
                        (("--camera", "render:1", "--scenario", str(classic), "--new"), "reading dice from render:1"),
                        (("--camera", "render:1", "--dice-kind", "d6"), "reading d6 from render:1")):
        process = nova("play", "--state", str(tmp_path / "table.db"), "--board", "none", "--no-encoder", *extra)
        try:
            lines = wait_for_line(process, "from render:1", seconds=60)
            assert said in lines[-1], (extra, lines)
            process.send_signal(signal.SIGTERM)
            assert process.wait(20) == 0
        finally:
            if process.poll() is None:
                process.kill()


@pytest.mark.parametrize(("size", "words"), [("320x240", "too small to read"), ("479x320", "too small to read"),
                                             ("100000x100000", "larger than any screen"), ("800x", "WIDTHxHEIGHT")])
def test_a_window_size_no_table_can_read_or_show_is_refused(size: str, words: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from assistant.cli import main

    with pytest.raises(SystemExit) as refused:
        main(["play", "--memory", "--size", size, "--screenshot", "unused.png"])
    assert refused.value.code == 2 and words in capsys.readouterr().err


def test_the_smallest_sizes_taken_are_a_small_screen_either_way_round() -> None:
    from assistant.ui.command import _size

    assert _size("480x320") == (480, 320) and _size("320x480") == (320, 480)


def test_a_damaged_event_names_the_way_on_and_play_new_starts_a_game_beside_it(tmp_path: Path) -> None:
    """One event gone bad stops `play` (under systemd, five tries and a blank screen): the message now says
    that `play --new` starts another game beside the damaged one, and it does, leaving that one as it was."""
    import sqlite3
    from contextlib import closing

    from tests.ui.test_notice import damaged_game

    state = tmp_path / "table.db"
    damaged_game(state)
    process = nova("play", "--state", str(state), "--screenshot", str(tmp_path / "x.png"))
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1 and "stored event 3 is damaged" in err and "`nova-table play --new` starts another game" in err
    process = nova("play", "--state", str(state), "--new", "--screenshot", str(tmp_path / "x.png"))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    with closing(sqlite3.connect(state)) as db:
        assert db.execute("SELECT id, head FROM games ORDER BY id").fetchall() == [(1, 3), (2, 0)]
