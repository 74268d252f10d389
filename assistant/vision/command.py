"""Read the dice in pictures, learn a table's own dice, or render labelled synthetic dice.

    nova-table dice read [--kind auto|d6|d8] [--profile FILE] IMAGE...
    nova-table dice learn MANIFEST --out PROFILE
    nova-table dice render OUTDIR [--count N] [--style pips|numerals|astro] [--tiles] [--seed S]
    nova-table dice watch [--source auto|picamera|camera:N|video:FILE|folder:DIR|render] [--tray] [--save DIR]

`read` prints one JSON line per image: {"image": PATH, "dice": [{"kind", "value", "confidence",
"box": [x, y, w, h]}]} (and "symbol" on a d8 whose astro symbol was read); a die that cannot be
read has "value": null, and "why" where it leans on something or is partly out of view. An image that cannot be
used gets {"image": PATH, "dice": [], "error": "..."} and a message on stderr; the others go on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="dice_command", metavar="ACTION", required=True)
    read = sub.add_parser("read", help="read the dice in pictures, one JSON line per picture")
    read.add_argument("images", nargs="+", metavar="IMAGE", help="picture files (or folders of them)")
    read.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto", help="the dice to expect")
    read.add_argument("--profile", type=Path, help="a dice profile made by `dice learn`")
    learn = sub.add_parser("learn", help="learn a dice profile from labelled photos (a manifest)")
    learn.add_argument("manifest", type=Path, metavar="MANIFEST", help="manifest.jsonl of labelled photos")
    learn.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="where to write the profile")
    learn.add_argument("--no-built-in", action="store_true",
                       help="learn from scratch instead of on top of the rendered-dice profile")
    render = sub.add_parser("render", help="render labelled synthetic dice pictures and their manifest")
    render.add_argument("out", type=Path, metavar="OUTDIR")
    render.add_argument("--count", type=int, default=100)
    render.add_argument("--seed", type=int, default=1)
    render.add_argument("--style", choices=("pips", "numerals", "astro"))
    render.add_argument("--kind", choices=("d6", "d8"))
    render.add_argument("--tiles", action="store_true", help="one die per 90x90 picture")
    watch = sub.add_parser("watch", help="read the tray live; print a JSON line each time the dice settle")
    watch.add_argument("--source", default="auto", help="auto, picamera, camera:N, video:FILE, folder:DIR, render")
    watch.add_argument("--tray", action="store_true", help="find the tray by its ArUco markers and read it top-down")
    watch.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto",
                       help="the dice to expect (the render source rolls these too)")
    watch.add_argument("--profile", type=Path, help="a dice profile made by `dice learn`")
    watch.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: never)")
    watch.add_argument("--save", type=Path, metavar="DIR",
                       help="keep each view read in DIR, with a manifest of what was read to correct for `dice learn`")


def expand(paths: list[str]) -> list[Path]:
    """The pictures named: files as given, folders as the pictures in them, sorted."""
    result: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            result.extend(sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES))
        else:
            result.append(path)
    return result


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def run_read(args: argparse.Namespace) -> int:
    from assistant.vision.errors import VisionError
    from assistant.vision.images import load_image
    from assistant.vision.profile import load
    from assistant.vision.reader import DiceReader

    profile = None
    if args.profile is not None:
        try:
            profile = load(args.profile)
            reader = DiceReader(args.kind, profile)
        except VisionError as bad:
            print(f"nova-table dice: {bad}", file=sys.stderr)
            return 2
    else:
        reader = DiceReader(args.kind)
    failures = 0
    warned = False
    for path in expand(args.images):
        try:
            reading = reader.read(load_image(path))
            if reader.problem and not warned:
                print(f"nova-table dice: {reader.problem}", file=sys.stderr)
                warned = True
        except VisionError as bad:
            failures += 1
            print(f"nova-table dice: {bad}", file=sys.stderr)
            emit({"image": str(path), "dice": [], "error": str(bad)})
            continue
        if not reading.dice:
            print(f"nova-table dice: {path}: no dice found", file=sys.stderr)
        emit({"image": str(path), "dice": [d.to_json() for d in reading.dice]})
    return 1 if failures else 0


def run_learn(args: argparse.Namespace) -> int:
    from assistant.vision.errors import VisionError
    from assistant.vision.heldout import held_out, verdict
    from assistant.vision.learn import entries_of, learn, learn_entries

    try:
        profile = learn(args.manifest, use_built_in=not args.no_built_in)
    except VisionError as bad:
        print(f"nova-table dice: {bad}", file=sys.stderr)
        return 2
    if len(profile) == 0:
        print(f"nova-table dice: {args.manifest}: nothing to learn (no labelled die needed a profile)",
              file=sys.stderr)
    profile.save(args.out)
    print(f"nova-table dice: learned {len(profile)} examples from {args.manifest} into {args.out}",
          file=sys.stderr)
    entries = entries_of(args.manifest, lambda _said: None)  # what is wrong in it was said above
    if len(entries) >= 2:
        print("nova-table dice: reading the photos with profiles learned from the others, to check it ...",
              file=sys.stderr)
        without, with_profile = held_out(
            entries, lambda rest: learn_entries(rest, not args.no_built_in, lambda _said: None))
        print(f"nova-table dice: {verdict(without, with_profile)}", file=sys.stderr)
    return 0


def run_render(args: argparse.Namespace) -> int:
    from assistant.vision.render import write_set

    manifest = write_set(args.out, args.count, args.seed, tiles=args.tiles, style=args.style, kind=args.kind)
    print(f"nova-table dice: rendered {args.count} pictures, labels in {manifest}", file=sys.stderr)
    return 0


def run_watch(args: argparse.Namespace) -> int:
    from assistant.vision.errors import VisionError
    from assistant.vision.watch import watch

    try:
        return watch(args.source, tray=args.tray, kind=args.kind, profile_path=args.profile,
                     max_frames=args.frames, emit=emit, save=args.save)
    except VisionError as bad:
        print(f"nova-table dice: {bad}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace) -> int:
    actions = {"read": run_read, "learn": run_learn, "render": run_render, "watch": run_watch}
    try:
        return actions[args.dice_command](args)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
