#!/usr/bin/env python3
"""Rebuild the built-in dice profile, `assistant/vision/rendered_profile.json`, from rendered dice only.

    .venv/bin/python calibration/build_rendered_profile.py

It renders labelled tiles of numeral dice (d6 and d8) and of Nova Aetas d8 with astro symbols
from seeds 1..99 (the benchmark and the tests render from other seeds), and learns from them what
the reader cannot read by method. No photo is used.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision.learn import learn  # noqa: E402
from assistant.vision.profile import BUILT_IN, Profile  # noqa: E402
from assistant.vision.render import write_set  # noqa: E402

PLAN = [  # (count, seed, style, kind)
    (500, 1, "astro", None),
    (300, 2, "numerals", "d8"),
    (300, 3, "numerals", "d6"),
]


def main() -> int:
    profile = Profile(learned_from=[])
    with tempfile.TemporaryDirectory() as tmp:
        for count, seed, style, kind in PLAN:
            manifest = write_set(Path(tmp) / f"{style}-{seed}", count, seed, tiles=True, style=style, kind=kind)
            part = learn(manifest, use_built_in=False)
            part.learned_from = [f"rendered {style} {kind or ''} tiles, {count} from seed {seed}".replace("  ", " ")]
            profile = profile.merged(part)
            print(f"{part.learned_from[0]}: {len(part)} examples")
    out = ROOT / "assistant" / "vision" / BUILT_IN
    profile.save(out)
    print(f"wrote {out}: {len(profile)} examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
