"""Each benchmark still runs and prints its figures (a short run: the figures themselves are the
benchmark's to measure, not a test's; this guards the scripts the closing notes quote)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.vision.render import write_set

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"\d+(?:\.\d+)?"


def run(script: str, *args: str) -> str:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("kind", ["auto", "d8"])
def test_dice_hard_prints_every_view(kind: str) -> None:
    out = run("dice_hard.py", "--scenes", "2", "--kind", kind)
    views = re.findall(r"^(\w+(?: \d+)?) +dice +(\d+) +right +(\d+) +misread +(\d+) .* not read +(\d+) +not found +(\d+)"
                       r" +false +\d+$", out, re.MULTILINE)
    assert [v[0] for v in views] == ["plain", "touching", "motion 5", "motion 9", "motion 13", "glare 120", "glare 200", "shade",
                                      "cut", "hand"]
    for _name, dice, *counts in views:
        assert int(dice) > 0 and sum(map(int, counts)) == int(dice)


def test_dice_accuracy_scores_a_folder_in_the_manifest_format(tmp_path: Path) -> None:
    write_set(tmp_path / "nova", 3, 4242, style="astro")
    out = run("dice_accuracy.py", str(tmp_path / "nova"), "--no-calibrate")
    line = re.search(rf"^nova +images +3 +found +(\d+)/ *(\d+) .* right +({NUMBER})% .* median +{NUMBER} ms", out, re.MULTILINE)
    assert line is not None, out
    assert 0 < int(line[1]) <= int(line[2])


def test_dice_accuracy_says_which_folder_is_not_a_set_and_scores_the_others(tmp_path: Path) -> None:
    write_set(tmp_path / "nova", 2, 4242, style="astro")
    (tmp_path / "notes.txt").write_text("not a set")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "dice_accuracy.py"), str(tmp_path / "notes.txt"),
                           str(tmp_path / "nova"), "--no-calibrate"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert f"{tmp_path / 'notes.txt'}: not a set in the manifest format" in done.stderr
    assert "Traceback" not in done.stderr
    assert re.search(r"^nova +images +2 +found", done.stdout, re.MULTILINE), done.stdout


def test_dice_first_frame_compares_the_first_frame_with_the_same_frame_again() -> None:
    out = run("dice_first_frame.py", "--processes", "1")
    assert re.search(rf"first frame after warm\(\) median {NUMBER} ms, the same frame again {NUMBER} ms \(x {NUMBER}\)", out), out


def test_session_resume_measures_an_append_against_a_bare_commit() -> None:
    out = run("session_resume.py", "--events", "50", "--repeat", "1", "--appends", "5")
    # the ratio reads "Nx the baseline", or "Nx faster than baseline" where the append beat the bare commit
    assert re.search(rf"append one event .* median +{NUMBER} us .*\( *{NUMBER}x (?:the|faster than) baseline\)", out), out


def test_ui_frame_times_a_key_to_the_screen() -> None:
    out = run("ui_frame.py", "--frames", "3")
    assert re.search(rf"key to screen \(memory\): +{NUMBER} ms", out), out


def test_ai_plan_times_the_plan_over_a_whole_game() -> None:
    out = run("ai_plan.py")
    assert re.search(rf"plan\(state\): median {NUMBER} us, max {NUMBER} us over \d+ states", out), out


def test_dice_speed_prints_medians_and_their_ratio_to_the_baseline() -> None:
    out = run("dice_speed.py", "--passes", "1", "--rendered", "2")
    assert re.search(rf"^all 640x480 frames +frames +\d+ +median +{NUMBER} ms", out, re.MULTILINE), out
    assert re.search(rf"^settle detection, every frame +frames +\d+ +median +{NUMBER} ms .* ratio x +{NUMBER}$", out,
                     re.MULTILINE), out
    assert re.search(rf"rendered Nova d8 scenes, --kind d8 frames +2 +median +{NUMBER} ms .* ratio x +{NUMBER}", out), out
    assert re.search(rf"the mast's tray, 40 px dice \(auto\) +frames +2 +median +{NUMBER} ms .* ratio x +{NUMBER}", out), out


@pytest.mark.skipif(not (ROOT.parent / "shared" / "dice").exists(), reason="needs ../shared/dice beside the project")
def test_dice_process_compares_dice_read_with_a_pip_counter_for_frames_and_12_mp_photos() -> None:
    out = run("dice_process.py", "--runs", "1", "--count", "2")
    lines = re.findall(rf"^(640x480 webcam frames|12 MP photos) +(\d) a process: +{NUMBER} s \| +{NUMBER} s \| x +{NUMBER}",
                       out, re.MULTILINE)
    assert lines == [("640x480 webcam frames", "1"), ("640x480 webcam frames", "2"), ("12 MP photos", "1"),
                     ("12 MP photos", "2")], out


def test_dice_flops_counts_a_conv_a_grouped_conv_and_a_gemm_as_their_multiply_adds() -> None:
    """2 FLOP a multiply-add: a 3x3 Conv of 1 to 4 planes on 8 x 8 (4608), the same grouped by plane (4608), a
    Gemm of 256 to 10 (5120); twice that for a batch of two."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1]),
             helper.make_node("Conv", ["a", "w2"], ["b"], pads=[1, 1, 1, 1], group=4),
             helper.make_node("Flatten", ["b"], ["f"]),
             helper.make_node("Gemm", ["f", "w3"], ["y"], transB=1)]
    graph = helper.make_graph(nodes, "counted", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 1, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(np.ones(shape, np.float32), name)
                               for name, shape in (("w1", (4, 1, 3, 3)), ("w2", (4, 1, 3, 3)), ("w3", (10, 256)))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    spec = importlib.util.spec_from_file_location("dice_flops", ROOT / "benchmarks" / "dice_flops.py")
    assert spec is not None and spec.loader is not None
    flops = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flops)
    assert flops.graph_flops(model, (1, 1, 8, 8)) == 4608 + 4608 + 5120
    assert flops.graph_flops(model, (2, 1, 8, 8)) == 2 * (4608 + 4608 + 5120)


def test_dice_flops_prints_gflop_and_a_pi_5_s_time_for_each_set_of_tray_frames() -> None:
    pytest.importorskip("onnx")
    out = run("dice_flops.py", "--frames", "1")
    sets = re.findall(rf"^(.+?) +frames +1 +GFLOP median +{NUMBER} \(finder +{NUMBER}\) max +{NUMBER} +looked again +[01]"
                      rf" +Pi 5 median +{NUMBER} to +{NUMBER} ms", out, re.MULTILINE)
    assert sets == ["mast, 40 px dice, 1 to 6", "mast, 40 px dice, 4", "larger tray, 32 px dice, 1 to 6",
                    "tray's top view (--tray), 1 to 6"], out
