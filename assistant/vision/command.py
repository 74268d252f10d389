"""Read the dice in pictures, learn a table's own dice, or render labelled synthetic dice.

    nova-table dice read [--kind auto|d6|d8] [--profile FILE] IMAGE...
    nova-table dice learn MANIFEST --out PROFILE
    nova-table dice render OUTDIR [--count N] [--style pips|numerals|astro] [--tiles] [--seed S]
    nova-table dice watch [--source auto|picamera|camera:N|video:FILE|folder:DIR|render] [--tray] [--save DIR]
    nova-table dice calibrate --kind d6|d8 --out PROFILE [--source ...] [--tray] [--views N] [--dice N] [--keep DIR]

`read` prints one JSON line per image: {"image": PATH, "dice": [{"kind", "value", "confidence",
"box": [x, y, w, h]}]} (and "symbol" on a d8 whose astro symbol was read); a die that cannot be
read has "value": null, and "why" where it is partly out of view. An image that cannot be
used gets {"image": PATH, "dice": [], "error": "..."} and a message on stderr; the others go on.
`watch` and `calibrate` without --source or --tray take the hardware file's [camera], as `play` does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.vision.dice import VIEWS

STEPS = "200 for dice the reader knows, up to 600 for new ones"  # tune.plan, said in --help without numpy

if TYPE_CHECKING:  # the reader's modules load inside each action (`nova-table --help` stays fast)
    from assistant.hardware.config import HardwareConfig
    from assistant.vision.reader import DiceReader


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="dice_command", metavar="ACTION", required=True)
    read = sub.add_parser("read", help="read the dice in pictures, one JSON line per picture")
    read.add_argument("images", nargs="+", metavar="IMAGE", type=_named, help="picture files (or folders of them)")
    read.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto", help="the dice to expect")
    read.add_argument("--profile", type=Path, help="a dice profile made by `dice learn`")
    learn = sub.add_parser("learn", help="learn a dice profile from labelled photos (a manifest)")
    learn.add_argument("manifest", type=Path, metavar="MANIFEST", help="manifest.jsonl of labelled photos")
    learn.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="where to write the profile")
    learn.add_argument("--steps", type=positive, help=f"batches of fine-tuning (default: {STEPS}; fewer: quicker, "
                                                     "less learned)")
    render = sub.add_parser("render", help="render labelled synthetic dice pictures and their manifest")
    render.add_argument("out", type=Path, metavar="OUTDIR")
    render.add_argument("--count", type=positive, default=100)
    render.add_argument("--seed", type=whole, default=1)
    render.add_argument("--style", choices=("pips", "numerals", "astro"))
    render.add_argument("--kind", choices=("d6", "d8"))
    render.add_argument("--tiles", action="store_true", help="one die per 90x90 picture")
    watch = sub.add_parser("watch", help="read the tray live; print a JSON line each time the dice settle")
    add_camera_arguments(watch)
    watch.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto",
                       help="the dice to expect (the render source rolls these too)")
    watch.add_argument("--profile", type=Path, help="a dice profile made by `dice learn` or `calibrate` (default: "
                                                    "the hardware file's [camera] profile, if any)")
    watch.add_argument("--frames", type=whole, default=0, help="stop after this many frames (0: never)")
    watch.add_argument("--save", type=Path, metavar="DIR",
                       help="keep each view read in DIR, with a manifest of what was read to correct for `dice learn`")
    calibrate = sub.add_parser(
        "calibrate", help="learn the table's own dice: show the camera each face when asked",
        description="Asks for each face of the kind in turn (on stderr); each time the dice lie still, every die "
                    "found is labelled with the face asked and the view is kept. When every face has its views, "
                    "the profile is learned and checked, as `dice learn` does. Run again, it goes on from the "
                    "faces still short.")
    calibrate.add_argument("--kind", choices=("d6", "d8"), required=True, help="the dice to show (one kind a run)")
    calibrate.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="where to write the profile")
    add_camera_arguments(calibrate)
    calibrate.add_argument("--views", type=positive, default=VIEWS, help=f"views of each face (default {VIEWS})")
    calibrate.add_argument("--steps", type=positive, help=f"batches of fine-tuning (default: {STEPS})")
    calibrate.add_argument("--dice", type=positive, help="how many dice you will show: other views are not kept")
    calibrate.add_argument("--keep", type=Path, metavar="DIR",
                           help="where the views are kept (default: beside PROFILE, named after it)")


def add_camera_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help="auto, picamera, camera:N, video:FILE, folder:DIR, render "
                                         "(default: the hardware file's [camera] source, else auto)")
    parser.add_argument("--tray", action=argparse.BooleanOptionalAction, default=None,
                        help="find the tray by its ArUco markers and read it top-down (default: the hardware file's)")


def table_camera(args: argparse.Namespace, profile: bool = False) -> HardwareConfig:
    """Fill in --source and --tray (and, with `profile`, --profile) left out from the hardware file's [camera], as
    `play` reads it: the table's own camera, whose source there is "none" when it has none (then "auto"). The file
    is not read where all are given. Its settings, or the defaults."""
    from assistant.hardware.config import HardwareConfig, load_config

    if None not in (args.source, args.tray) and (not profile or args.profile is not None):
        return HardwareConfig()
    config = load_config()  # ConfigError (a VisionError's place: said, exit 2) where the file is bad
    if args.source is None:
        args.source = "auto" if config.camera_source() == "none" else config.camera_source()
    if args.tray is None:
        args.tray = config.camera.tray
    return config


def positive(text: str) -> int:
    return at_least(1, text)


def whole(text: str) -> int:
    return at_least(0, text)


def at_least(low: int, text: str) -> int:
    """`text` as a whole number of `low` or more, or argparse's error saying so."""
    try:
        number = int(text)
    except ValueError:
        number = low - 1
    if number < low:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {low} or more")
    return number


def _named(name: str) -> str:
    """A picture's name as given; an empty one is refused (as a path it is the current folder, read whole)."""
    if not name:
        raise argparse.ArgumentTypeError("an empty name is no picture")
    return name


def expand(paths: list[str]) -> list[Path]:
    """The pictures named: files as given, folders as the pictures in them, sorted (a folder with none
    as itself, for `run_read` to say so)."""
    from assistant.vision.images import IMAGE_SUFFIXES

    result: list[Path] = []
    for name in paths:
        path = Path(name)
        try:
            inside = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if os.path.isdir(path) else []
        except OSError:  # a folder that cannot be read: `run_read` says why
            inside = []
        result.extend(inside or [path])
    return result


def say(line: str) -> None:
    """A line for the person at the command, on stderr (stdout is kept for JSON)."""
    print(f"nova-table dice: {line}", file=sys.stderr, flush=True)


def warmed(reader: DiceReader) -> DiceReader:
    """`reader` (a DiceReader) warmed before the first settled roll, not during it."""
    reader.warm()
    return reader


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def run_read(args: argparse.Namespace) -> int:
    from assistant.vision.errors import ImageError, VisionError
    from assistant.vision.images import IMAGE_SUFFIXES, load_image
    from assistant.vision.profile import load
    from assistant.vision.reader import DiceReader

    try:
        reader = DiceReader(args.kind, load(args.profile) if args.profile is not None else None)
    except VisionError as bad:
        say(str(bad))
        return 2
    failures = 0
    for path in expand(args.images):
        try:
            if os.path.isdir(path):  # `expand` gives a folder as itself only where it holds no pictures
                try:
                    os.listdir(path)
                except OSError as bad:
                    raise ImageError(f"{path}: cannot read this folder ({bad.strerror or bad})") from None
                raise ImageError(f"{path}: no pictures in this folder ({', '.join(sorted(IMAGE_SUFFIXES))})")
            reading = reader.read(load_image(path))
        except VisionError as bad:
            failures += 1
            say(str(bad))
            emit({"image": str(path), "dice": [], "error": str(bad)})
            continue
        if not reading.dice:
            say(f"{path}: no dice found")
        emit({"image": str(path), "dice": [d.to_json() for d in reading.dice]})
    return 1 if failures else 0


def run_learn(args: argparse.Namespace) -> int:
    return learn_and_check(args.manifest, args.out, args.steps)


def learn_and_check(manifest: Path, out: Path, steps: int | None = None) -> int:
    """Learn a profile from `manifest` into `out` (the finder and the face network fine-tuned on it), saying first how
    well a profile learned without some of its pictures reads those (heldout.py)."""
    from assistant.vision.errors import VisionError
    from assistant.vision.learn import checked, entries_of, examples, say_missing
    from assistant.files import same_file

    if same_file(out, manifest):
        say(f"{out}: is the manifest: write the profile to another file")
        return 2
    try:
        entries = entries_of(manifest, say)
        found = examples(entries)
        if not found.faces:
            say(f"{manifest}: nothing to learn (no usable labelled die in it); {out} is left as it was")
            return 1
        say_missing(found.faces, manifest, say)
        profile, _ = checked(manifest, entries, found, steps, progress_bar("checking"), progress_bar("learning"))
        profile.save(out)
    except VisionError as bad:
        say(str(bad))
        return 2
    if profile.finder is not None:
        say(f"the finder learned from the {len(found.whole())} pictures whose every die is labelled with its whole box")
    dice = sum(found.faces.values())
    say(f"learned {dice} dice ({', '.join(f'{face} x{n}' for face, n in found.faces.items())}) from {manifest} into {out}")
    return 0


def progress_bar(what: str) -> Callable[[float], None]:
    """A progress line on stderr for each quarter done."""
    said = [0]

    def show(share: float) -> None:
        if share * 4 >= said[0] + 1:
            said[0] = int(share * 4)
            say(f"{what}: {25 * said[0]} %")

    return show


def run_render(args: argparse.Namespace) -> int:
    from assistant.vision.errors import VisionError
    from assistant.vision.render import KIND_OF_STYLE, draws, write_set

    if not draws(args.style, args.kind):
        say(f"--style {args.style} draws {KIND_OF_STYLE[args.style]} only, not {args.kind}: leave out --kind, "
            "or use --style numerals (d6 or d8)")
        return 2
    try:
        manifest = write_set(args.out, args.count, args.seed, tiles=args.tiles, style=args.style, kind=args.kind)
    except VisionError as bad:
        say(str(bad))
        return 2
    say(f"rendered {args.count} pictures, labels in {manifest}")
    return 0


def run_watch(args: argparse.Namespace) -> int:
    from assistant.hardware.config import ConfigError
    from assistant.vision.errors import ProfileError, VisionError
    from assistant.vision.watch import watch

    try:
        config = table_camera(args, profile=True)
        profile = args.profile or config.dice_profile()
        return watch(args.source, tray=args.tray, kind=args.kind, profile_path=profile, max_frames=args.frames,
                     emit=emit, save=args.save)
    except ProfileError as bad:  # the file's profile is said as the file's
        said = args.profile is None and config.dice_profile() is not None
        say(f"{config.source}: [camera] profile: {bad}" if said else str(bad))
        return 2
    except (VisionError, ConfigError) as bad:
        say(str(bad))
        return 2


def run_calibrate(args: argparse.Namespace) -> int:
    from assistant.hardware.config import ConfigError
    from assistant.vision.errors import VisionError
    from assistant.vision.guide import calibrate
    from assistant.vision.reader import DiceReader
    from assistant.vision.snapshots import Snapshots
    from assistant.vision.sources import open_source
    from assistant.vision.tray import TrayFinder

    if args.out.exists() and not args.out.is_file():  # said before the faces are asked for, not after
        say(f"{args.out}: {'is a folder' if args.out.is_dir() else 'not a regular file'}: give the profile a file name")
        return 2
    folder = args.keep or views_folder(args.out)
    try:
        table_camera(args)
        reader = warmed(DiceReader(args.kind))
        with open_source(args.source, args.kind) as source:  # a source that cannot open leaves no folder behind
            snapshots = Snapshots(folder)
            say(f"watching {source.name}; keeping the views in {folder}; Ctrl-C stops, and the same command "
                "later goes on from there")
            short = calibrate(source, reader, args.kind, snapshots, say, args.views, args.dice,
                              TrayFinder() if args.tray else None)
    except (VisionError, ConfigError) as bad:
        say(str(bad))
        return 2
    except KeyboardInterrupt:
        say(f"stopped; the views kept so far are in {folder}: the same command goes on from there")
        return 130
    if short:
        say(f"{args.source} ended before every face was shown (views still to show: {args.kind} faces "
            f"{', '.join(map(str, short))}); the views kept are in {folder}: the same command goes on from there")
        return 1
    return learn_and_check(snapshots.manifest, args.out, args.steps)


def views_folder(profile: Path) -> Path:
    """Where a calibration keeps its views by default: beside the profile, named after it (my-dice-views/)."""
    return profile.with_name((profile.name.split(".")[0] or profile.stem) + "-views")


def run(args: argparse.Namespace) -> int:
    actions = {"read": run_read, "learn": run_learn, "render": run_render, "watch": run_watch,
               "calibrate": run_calibrate}
    if args.dice_command in ("learn", "calibrate"):  # before a picture is read or a face asked for
        from assistant.vision.errors import VisionError
        from assistant.vision.pytorch import check

        try:
            check()
        except VisionError as bad:
            say(str(bad))
            return 2
    try:
        return actions[args.dice_command](args)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
