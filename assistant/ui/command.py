"""Open the touchscreen table: the live Horologium, the Perilium, and the intents of the game in progress.

With no arguments it resumes the game in progress in the state file; with none (or --new) it asks on
the screen which game to start, the bundled demo skirmish or a game of Nova Lectio: Status (with no
display, the demo starts). Every action is saved in the state file before it is shown. Keyboard: arrows choose,
Enter confirms, Backspace or Escape goes back, the letter on a button picks it, 1-8 type dice,
U undo, Y redo, Ctrl+Q or Escape held one second quits. Touch and mouse tap the buttons.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.hardware.config import HardwareConfig
    from assistant.ui.display import Screen


def default_state_path() -> Path:
    from assistant.session.command import default_state

    return Path(default_state())


SMALLEST = (480, 320)  # the smallest Pi touch screens; below it the forms' words are cut
LARGEST = 8192


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 800x480, not {text!r}") from None
    if min(width, height) < SMALLEST[1] or max(width, height) < SMALLEST[0]:
        raise argparse.ArgumentTypeError(f"{text}: too small to read at the table (at least {SMALLEST[0]}x{SMALLEST[1]}, "
                                         "a 3.5-inch screen, or its portrait)")
    if max(width, height) > LARGEST:
        raise argparse.ArgumentTypeError(f"{text}: larger than any screen ({LARGEST} pixels a side at most)")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--scenario", type=Path, help="start a new game from this scenario file (TOML)")
    which.add_argument("--status", metavar="FACTIONS",
                       help="start a game of Nova Lectio: Status for these Factions, clockwise, comma-separated "
                            "(mano, ragione, milizia, pugno)")  # fmt: skip
    parser.add_argument("--priority", metavar="FACTION", help="with --status: who holds the Priority token (default: the first)")
    parser.add_argument("--state", type=Path, default=None,
                        help=f"the state file of saved games (default: {default_state_path()})")  # fmt: skip
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if one is in progress: on a screen, choose Nova Aetas or Status first")  # fmt: skip
    parser.add_argument("--memory", action="store_true", help="keep the game in memory only (nothing is saved)")
    parser.add_argument("--size", type=_size, default=None, help="window size, e.g. 800x480 or 720x1280")
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None, help="full screen")
    screen.add_argument("--window", dest="fullscreen", action="store_false", help="a window, even on KMS/DRM")
    parser.add_argument("--hardware", type=Path, help="hardware settings (TOML; see assistant/hardware/config.py)")
    parser.add_argument("--board", metavar="PORT", help='the RP2040 board\'s serial port, "auto" or "none"')
    parser.add_argument("--no-encoder", action="store_true", help="do not use the rotary encoder")
    parser.add_argument("--camera", metavar="SOURCE",
                        help="read the dice with the camera: picamera, camera:N, video:FILE, folder:DIR, render, auto; "
                             "none (default: the hardware file's [camera] source, or none)")
    parser.add_argument("--camera-tray", action=argparse.BooleanOptionalAction, default=None,
                        help="the tray has corner markers: read inside them (default: the hardware file's)")
    parser.add_argument("--dice-profile", type=Path, metavar="PROFILE",
                        help="the table's own dice, learned by `nova-table dice calibrate` or `learn`, for the camera "
                             "(default: the hardware file's)")
    parser.add_argument("--dice-kind", choices=("auto", "d6", "d8"), default=None,
                        help="the dice the camera reads (default: the game's; a Renaissance game rolls only its d8, "
                             "a first-edition game d6 and d8: auto)")
    parser.add_argument("--screenshot", type=Path, help="draw the first screen into this PNG file and exit")


def _open_game(args: argparse.Namespace) -> object:
    from assistant.ui.table import MemoryGame, demo_path, load_scenario, open_saved_game

    if args.memory and args.status is not None:
        raise ValueError("--memory plays Nova Aetas only: a game of Status is kept in the state file")
    if args.memory:
        return MemoryGame(load_scenario(args.scenario or demo_path(), args.state))
    try:
        import assistant.session.games  # noqa: F401
    except ModuleNotFoundError:
        print("nova-table: the session journal is not installed: this game is kept in memory only", file=sys.stderr)
        return MemoryGame(load_scenario(args.scenario or demo_path(), args.state))
    status = None
    if args.status is not None:
        from assistant.session.status_fold import setup_text

        status = setup_text(args.status.split(","), args.priority)
    return open_saved_game(args.state or default_state_path(), args.scenario, args.new, status)


def check_profile(path: Path, where: str) -> None:
    """A dice profile the camera's reader can use (loaded whole: both networks run here and fit the reader), or
    ValueError saying what is wrong and where (`where`: who named it)."""
    from assistant.vision.errors import VisionError
    from assistant.vision.profile import load

    try:
        load(path)
    except VisionError as bad:
        raise ValueError(f"{where}: {bad}") from None


def camera_settings(args: argparse.Namespace, config: HardwareConfig) -> tuple[str | None, bool, Path | None]:
    """The camera's source (None: no camera), whether the tray has markers, and the table's dice profile: what
    the command line says, else the hardware file's [camera]. ValueError saying what is wrong and where."""
    from_file = f"{config.source}: [camera]"
    source = config.camera_source() if args.camera is None else args.camera
    if source in ("none", ""):
        return None, False, None
    from assistant.vision.errors import SourceError
    from assistant.vision.sources import check_spec

    try:
        check_spec(source)
    except SourceError as bad:
        raise ValueError(f"{'--camera' if args.camera is not None else from_file + ' source'}: {bad}") from None
    profile = args.dice_profile or config.dice_profile()
    if profile is not None:
        check_profile(profile, "--dice-profile" if args.dice_profile else f"{from_file} profile")
    else:
        profile = calibrated()
    return source, config.camera.tray if args.camera_tray is None else args.camera_tray, profile


def calibrated() -> Path | None:
    """The profile the table app's calibration wrote (`calibrate_work.default_profile`), where neither the command
    line nor the hardware file names one: None where there is none, or it cannot be used (said: the table plays on,
    reading without it, and the calibration writes it anew)."""
    from assistant.ui.calibrate_work import default_profile

    own = default_profile()
    if not own.exists():
        return None
    try:
        check_profile(own, "the table's own calibration")
    except ValueError as bad:
        print(f"nova-table: {bad}: reading the dice without it", file=sys.stderr)
        return None
    return own


def check_screenshot(path: Path, state: Path) -> None:
    """A file the screenshot can be written to (tried, and left as it was), or ValueError saying why not."""
    from assistant.files import Refused, check_target, state_files

    try:
        check_target(path, "the screenshot", state_files(state))
    except Refused as error:
        raise ValueError(f"--screenshot {error}") from None
    except OSError as error:
        raise ValueError(f"--screenshot {path}: cannot write a picture there ({error.strerror})") from None


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from assistant.files import state_files
    from assistant.hardware.config import ConfigError, load_config

    if args.screenshot:
        try:
            check_screenshot(args.screenshot, args.state or default_state_path())
        except ValueError as error:
            print(f"nova-table: {error}", file=sys.stderr)
            return 1
    try:  # the hardware and the dice profile checked before any game is opened or made: nothing starts on a bad one
        config = load_config(args.hardware)
        camera, tray, profile = camera_settings(args, config)
    except (ConfigError, ValueError) as error:
        print(f"nova-table: {error}", file=sys.stderr)
        return 1
    unread: Exception | None = None  # the saved game that could not be resumed: said on the screen too
    game: object | None = None
    named = args.scenario is not None or args.status is not None or args.memory or args.screenshot
    choose = not named and (args.new or not _in_progress(args.state or default_state_path()))
    try:
        if args.priority is not None and args.status is None:
            raise ValueError("--priority: only with --status")
        game = None if choose else _open_game(args)
    except Exception as error:
        if isinstance(error, ValueError) and not _said(error):
            print(f"nova-table: {error}", file=sys.stderr)
            return 1
        if _said(error) or isinstance(error, (OSError, sqlite3.Error)):
            print(f"nova-table: {error}", file=sys.stderr)
            if args.new or args.scenario or args.memory or args.screenshot:
                return 1
            unread = error
        else:
            raise

    import pygame

    from assistant.service import service
    from assistant.ui.devices import attach_board, attach_camera, attach_encoder, dice_of
    from assistant.ui.display import open_screen
    from assistant.ui.status_app import app_for

    asked_for_dummy = os.environ.get("SDL_VIDEODRIVER") == "dummy"
    screen = open_screen(args.size, args.fullscreen)
    if screen.driver.lower() == "dummy" and not asked_for_dummy and service.watched:
        print("nova-table: no screen, under systemd: stopping with an error, for systemd to start the table again",
              file=sys.stderr)  # fmt: skip
        pygame.quit()
        return 1
    pygame.font.init()
    carried: object | None = None
    while True:
        if choose:
            picked = _new_game(args, screen, config)
            if isinstance(picked, int):
                pygame.quit()
                return picked
            if isinstance(picked, Exception):  # the state file cannot take it: said, and on a screen shown
                print(f"nova-table: {picked}", file=sys.stderr)
                unread = picked
            else:
                game = picked
        if game is None:
            way = _way_on(args, screen, unread, config)
            if isinstance(way, int):
                pygame.quit()
                return way
            game = way
        app = app_for(game, screen.surface)  # type: ignore[arg-type]
        if carried is not None:  # a campaign mission's end: its form open on the sheet
            app.carry(carried)  # type: ignore[attr-defined]
            carried = None
        app.log(f"{screen.driver} {screen.surface.get_width()}x{screen.surface.get_height()}"
                f"{' full screen' if screen.fullscreen else ''}; game {game.where}")  # type: ignore[attr-defined]  # fmt: skip
        if args.screenshot:
            try:
                app.screenshot(str(args.screenshot), state_files(args.state or default_state_path()))
            except OSError as error:  # the card filled, the folder went away since it was checked
                print(f"nova-table: --screenshot {args.screenshot}: cannot write it ({error.strerror or error})",
                      file=sys.stderr)  # fmt: skip
                return 1
            finally:
                app.close()
                pygame.quit()
            return 0
        if not args.no_encoder:
            attach_encoder(app, config)
        status = getattr(game, "kind", "mission") in ("status", "campaign")  # no Horologium for the board, no dice for the camera
        if not status:
            attach_board(app, config, args.board)
        if camera is not None and not status:
            kind = args.dice_kind or dice_of(game.state.edition)  # type: ignore[attr-defined]
            attach_camera(app, camera, tray=tray, kind=kind, profile=profile)
        try:
            code = app.run()
        except BaseException:
            pygame.quit()
            raise
        went = _onwards(app, screen, args.state or default_state_path())
        if went is not None:  # the campaign sheet's New mission, or a campaign mission's end onto the sheet
            game, carried = went
            choose, unread = False, None
            continue
        if not getattr(app, "to_start", False):  # the campaign sheet's Back: the start screen again, on the same screen
            pygame.quit()
            return code
        choose, game, unread = True, None, None


def _onwards(app: object, screen: Screen, state: Path) -> tuple[object, object | None] | None:
    """Where the campaign leads once its app closed: the sheet's New mission, the mission built (the sheet again where
    none is); a campaign mission's Campaign sheet, the sheet with its end to carry. None: neither."""
    from assistant.ui.mission.builder import build_mission
    from assistant.ui.table import open_campaign, open_saved_game

    if getattr(app, "to_build", False):
        built = build_mission(screen.surface, state)
        return (open_saved_game(state, built, True) if built is not None else open_campaign(state)), None
    carried = getattr(app, "to_campaign", None)
    if carried is not None:
        return open_campaign(state), carried
    return None


def _in_progress(path: Path) -> bool:
    """Whether the state file holds a game to resume; where in doubt (a file that cannot be read), True: opening it
    says what is wrong, as it always did."""
    from assistant.session.errors import NoSuchGame
    from assistant.session.games import StateFile

    if not path.exists():
        return False
    try:
        with StateFile(path, read_only=True) as games:
            return games.game(None).status == "active"
    except NoSuchGame:
        return False
    except Exception:
        return True


def _new_game(args: argparse.Namespace, screen: Screen, config: HardwareConfig) -> object | int:
    """`play --new`, or `play` with no game to resume: on a screen, the game to start is chosen first
    (`ui/new_game.py`, `ui/start.py`): a saved game to resume (the one in play said), the demo or a scenario of the
    folder `scenarios` beside the state file, a new mission set up on the screen (`ui/mission/`, saved in that
    folder), or Status for the Factions at the table. With no screen (SDL's dummy
    driver) the demo starts, as it always did.
    The game, the exit status (0: closed without starting), or why the state file cannot take it."""
    from assistant.ui.devices import attach_encoder
    from assistant.ui.mission.builder import build_mission
    from assistant.ui.mission.card_editor import edit_card
    from assistant.ui.new_game import choose_game
    from assistant.ui.start import offers
    from assistant.ui.table import open_saved_game

    state = args.state or default_state_path()
    status = None
    picked: dict[str, Any] = {"game": "mission"}  # with no screen, the demo
    if screen.driver.lower() != "dummy":
        knob = _Knob()
        if not args.no_encoder:
            attach_encoder(knob, config)
        try:
            while True:  # the mission builder's Back, the card editor's end: the start screen again
                chosen = choose_game(screen.surface, offers=offers(state, state.parent / "scenarios"))
                if chosen is not None and chosen["game"] == "cards":
                    edit_card(screen.surface, state)
                    continue
                if chosen is None or chosen["game"] != "build":
                    break
                built = build_mission(screen.surface, state)
                if built is not None:
                    chosen = {"game": "mission", "scenario": str(built)}
                    break
        finally:
            for close in knob.closers:
                close()
        if chosen is None:
            return 0
        picked = chosen
        if picked["game"] == "status":
            from assistant.session.status_fold import setup_text

            status = setup_text(picked["factions"], picked["priority"])
    try:
        if picked.get("game") == "campaign":
            from assistant.ui.table import open_campaign

            return open_campaign(state)
        if picked.get("game") == "resume":  # a saved game: made the one in play, as `session resume` does
            from assistant.session.games import StateFile

            with StateFile(state) as games:
                games.resume(picked["id"])
            return open_saved_game(state, None, False)
        scenario = Path(picked["scenario"]) if picked.get("scenario") else None
        return open_saved_game(state, scenario, True, status)
    except Exception as error:
        if _said(error) or isinstance(error, (OSError, sqlite3.Error)):
            return error
        raise


def _way_on(args: argparse.Namespace, screen: Screen, unread: Exception | None, config: HardwareConfig) -> object | int:
    """Where the saved game cannot be resumed, the reason on the screen and the ways on: a new game of its
    mission in the same file (the damaged game stays there), or quit. The game to play, or the exit status
    (1 where nobody can see the screen: SDL's dummy driver)."""
    from assistant.session.errors import StateFileError
    from assistant.ui.devices import attach_encoder
    from assistant.ui.notice import choose
    from assistant.ui.table import start_again

    if screen.driver.lower() == "dummy":
        return 1
    state = args.state or default_state_path()
    knob = _Knob()  # the encoder answers the notice too; released for the table's own after it
    if not args.no_encoder:
        attach_encoder(knob, config)
    try:
        if isinstance(unread, (StateFileError, OSError, sqlite3.Error)):  # the file itself: nothing can be played in it
            choose(screen.surface, "The state file cannot be used", f"{unread}", [("quit", "Quit")])
            return 0
        again = "Start again: this mission anew in the same file, where the damaged game stays (nova-table session list)."
        picked = choose(screen.surface, "The saved game cannot be resumed", f"{unread}\n\n{again}",
                        [("new", "Start again"), ("quit", "Quit")])  # fmt: skip
    finally:
        for close in knob.closers:
            close()
    if picked != "new":
        return 0
    try:
        return start_again(state)
    except Exception as error:
        if _said(error):
            print(f"nova-table: {error}", file=sys.stderr)
            return 1
        raise


def _said(error: Exception) -> bool:
    """An error of the session (a state or scenario file): its message says what and where."""
    return type(error).__module__.startswith("assistant.session")


class _Knob:
    """The encoder's host while the notice is shown (`devices.Host`)."""

    def __init__(self) -> None:
        self.closers: list[Callable[[], None]] = []

    def log(self, message: str) -> None:
        print(f"nova-table: {message}", file=sys.stderr)
