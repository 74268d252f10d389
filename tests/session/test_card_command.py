"""`nova-table cards list`, `check`, `import` and `export`, through the real command: the library beside the state file."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.session.card_library import EXAMPLES
from tests.session.conftest import Nova
from tests.session.test_cards import CAPTAIN, CARDS_DEMO

EXAMPLE_IDS = [("hero", i) for i in ("eleonora", "sofia", "valerio", "vincenzo")] + [
    ("enemy", i) for i in ("alchemist", "papal_guard", "slingers")]  # fmt: skip


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_list_shows_the_examples_then_a_tables_own_card_over_the_example_of_its_id(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    listed = nova.json("cards", "list", "--state", state)
    assert [(c["kind"], c["id"]) for c in listed] == EXAMPLE_IDS
    assert {(c["from"], c["example_values"], c["edition"]) for c in listed} == {("examples", True, "renaissance")}
    assert listed[5]["name"] == "Papal Guard" and listed[5]["file"] == str(EXAMPLES / "enemies" / "papal_guard.toml")
    guard = (EXAMPLES / "enemies" / "papal_guard.toml").read_text().replace("example_values = true\n", "")
    write(tmp_path / "cards" / "enemies" / "papal_guard.toml", guard)
    write(tmp_path / "cards" / "enemies" / "captain.toml", CAPTAIN)
    listed = nova.json("cards", "list", "--state", state)
    assert [(c["id"], c["from"], c.get("hides")) for c in listed if c["kind"] == "enemy"] == [
        ("alchemist", "examples", None), ("captain", "table", None), ("papal_guard", "table", ["examples"]),
        ("slingers", "examples", None)]  # fmt: skip
    assert not state.exists()  # the library is read, the state file never made


def test_state_and_its_environment_variable_choose_the_library(nova: Nova, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "here" / "cards" / "enemies" / "captain.toml", CAPTAIN)
    monkeypatch.setenv("NOVA_TABLE_STATE", str(tmp_path / "here" / "table.db"))
    assert "captain" in [c["id"] for c in nova.json("cards", "list")]
    assert "captain" not in [c["id"] for c in nova.json("cards", "list", "--state", tmp_path / "there" / "table.db")]


def test_check_says_each_wrong_card_at_its_file_and_line(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    checked = nova.json("cards", "check", "--state", state)
    assert [(c["kind"], c["id"]) for c in checked] == EXAMPLE_IDS
    bad = write(tmp_path / "cards" / "enemies" / "captain.toml", CAPTAIN.replace("threshold = 5", "threshold = 1"))
    misplaced = write(tmp_path / "cards" / "heroes" / "captain.toml", CAPTAIN)
    code, out, err = nova("cards", "check", "--state", state)
    assert code == 1 and len(out.splitlines()) == 7
    assert err.splitlines() == [f"{misplaced}:4: enemy: an enemy card in the heroes folder: move it to enemies/",
                                f"{bad}:22: enemy.attacks[1].threshold: expected a number from 2 to 8, got 1"]
    usb = write(tmp_path / "usb" / "captain.toml", CAPTAIN)  # a file named is checked as it is, wherever it lies
    assert nova.json("cards", "check", "--state", state, usb) == [{"checked": str(usb), "id": "captain", "kind": "enemy"}]
    code, _, err = nova("cards", "check", "--state", state, tmp_path / "cards")
    assert code == 1 and err.splitlines() == [f"{bad}:22: enemy.attacks[1].threshold: expected a number from 2 to 8, got 1"]
    code, _, err = nova("cards", "check", "--state", state, tmp_path / "missing.toml")
    assert code == 1 and err == f"{tmp_path / 'missing.toml'}: cannot read the file: No such file or directory\n"


def test_import_copies_checked_cards_and_refuses_a_wrong_one_writing_nothing_for_it(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    usb = tmp_path / "usb"
    good = write(usb / "enemies" / "captain.toml", "# typed at home\n" + CAPTAIN)
    bad = write(usb / "heroes" / "maria.toml", (EXAMPLES / "heroes" / "sofia.toml").read_text().replace('"sofia"', '"maria"')
                .replace("mind = 3", "mind = 12"))  # fmt: skip
    write(usb / "enemies" / "._captain.toml", "\x00\x05 a Mac's resource fork")
    code, out, err = nova("cards", "import", "--state", state, usb)
    assert code == 1
    assert err.splitlines() == [f"{bad}:14: hero.mind: expected a number from 1 to 9, got 12",
                                f"nova-table cards import: {bad}: not imported"]
    own = tmp_path / "cards"
    assert out.splitlines() and sorted(p.relative_to(own).as_posix() for p in own.rglob("*") if p.is_file()) == ["enemies/captain.toml"]
    assert (own / "enemies" / "captain.toml").read_bytes() == good.read_bytes()  # the file as typed, comments kept
    assert "captain" in [c["id"] for c in nova.json("cards", "list", "--state", state)]

    changed = write(usb / "enemies" / "captain.toml", CAPTAIN.replace("health = 7", "health = 8"))
    code, out, err = nova("cards", "import", "--state", state, changed)
    assert (code, out) == (1, "") and "the library has a enemy card" not in err
    assert err == (f'nova-table cards import: {changed}: the library has an enemy card "captain" already '
                   f"({own / 'enemies' / 'captain.toml'}): --replace to replace it; not imported\n")
    assert "health = 7" in (own / "enemies" / "captain.toml").read_text()
    replaced = nova.json("cards", "import", "--state", state, "--replace", changed)
    assert replaced[0]["replaced"] and "health = 8" in (own / "enemies" / "captain.toml").read_text()


def test_export_copies_cards_out_in_the_librarys_layout_and_import_takes_them_back(nova: Nova, tmp_path: Path) -> None:
    here, there = tmp_path / "pi" / "table.db", tmp_path / "other" / "table.db"
    write(tmp_path / "pi" / "cards" / "enemies" / "captain.toml", CAPTAIN)
    stick = tmp_path / "stick"
    exported = nova.json("cards", "export", "--state", here, "--out", stick)  # the table's own cards
    assert exported == [{"exported": "captain", "kind": "enemy", "from": "table", "to": str(stick / "enemies" / "captain.toml")}]
    named = nova.json("cards", "export", "--state", here, "--out", stick, "sofia", "captain")
    assert [(c["exported"], c["from"]) for c in named] == [("sofia", "examples"), ("captain", "table")]
    assert (stick / "heroes" / "sofia.toml").read_bytes() == (EXAMPLES / "heroes" / "sofia.toml").read_bytes()
    code, out, err = nova("cards", "export", "--state", here, "--out", tmp_path / "none", "sofia", "capitano")
    assert (code, out) == (1, "") and "no card 'capitano' in the library" in err and not (tmp_path / "none").exists()

    assert [c["id"] for c in nova.json("cards", "import", "--state", there, stick)] == ["captain", "sofia"]
    code, out, err = nova("session", "new", "--state", there, "--scenario", CARDS_DEMO)
    assert code == 0, err
    assert (tmp_path / "other" / "cards" / "enemies" / "captain.toml").read_bytes() == CAPTAIN.encode()


def test_export_writes_no_card_over_a_folder_and_says_so(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    (tmp_path / "out" / "heroes" / "sofia.toml").mkdir(parents=True)
    code, out, err = nova("cards", "export", "--state", state, "--out", tmp_path / "out", "sofia")
    assert (code, out) == (1, "")
    assert err.startswith(f"nova-table cards export: --out {tmp_path / 'out'}: cannot write ") and "a folder" in err
