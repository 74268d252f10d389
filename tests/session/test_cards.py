"""The card library: scenarios that name cards play as the same scenarios written out, wrong cards and wrong references
are said at their file and line, and a game keeps its cards whole."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from assistant.demo.autoplay import endless, play
from assistant.session.card_library import EXAMPLES, library_for
from assistant.session.errors import ScenarioError
from assistant.session.scenario_file import load_scenario, parse_scenario, read_scenario_text
from tests.session.conftest import DEMO, FOLDS, Nova, demo_text

CARDS_DEMO = Path(__file__).with_name("skirmish_cards.toml")

CAPTAIN = """\
format = 1
edition = "renaissance"

[enemy]
id = "captain"
name = "Captain of the Guard"
rank = "elite"
faction = "Rome"
swiftness = 4
control_area = 5
physical_defense = 6
psychic_defense = 5
health = 7
target_priority = ["closest", "standard"]

[[enemy.attacks]]
name = "Sabre"
kind = "physical"
ap = 2
range = 1
hits = 2
threshold = 5
"""

CLASSIC_CAPTAIN = (CAPTAIN.replace('"renaissance"', '"classic"').replace("swiftness", "rapidity").replace("health", "wounds")
                   .replace("psychic_defense", "mental_defense").replace("hits", "strikes"))  # fmt: skip

CAPTAIN_INLINE = """
[[enemies]]
id = "captain"
name = "Captain of the Guard"
rank = "elite"
faction = "Rome"
swiftness = 4
control_area = 5
physical_defense = 6
psychic_defense = 5
health = 9
models = 2
target_priority = ["closest", "standard"]

[[enemies.attacks]]
name = "Sabre"
kind = "physical"
ap = 2
range = 1
hits = 2
threshold = 5
"""

CAPTAIN_NAMED = """
[[enemies]]
card = "captain"
models = 2
health = 9
"""


def states(text: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every state of a game of `text` (folded as a saved game folds it), from its start to after the last event."""
    fold = FOLDS("mission", text, "test")
    state = fold.initial()
    out = [fold.dump(state)]
    for event in events:
        state = fold.apply(state, json.loads(json.dumps(event)))
        out.append(fold.dump(state))
    return out


def events_of(text: str, count: int, seed: int, gentle: bool) -> list[dict[str, Any]]:
    fold = FOLDS("mission", text, "test")
    return list(play(fold.initial(), random.Random(seed), count, gentle=gentle))


def table(tmp_path: Path, cards: dict[str, str] | None = None) -> Path:
    """A table's state file (not made) with these cards of its own ("enemies/captain": text) beside it."""
    for name, text in (cards or {}).items():
        path = tmp_path / "cards" / f"{name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "games.db"


def with_enemy(scenario: str, enemy: str) -> str:
    """The demo with one more enemy group, its token in sector 5."""
    return scenario.replace("alchemist = 6\n", "alchemist = 6\ncaptain = 5\n").replace("[[goals]]", enemy.lstrip() + "\n[[goals]]")


@pytest.mark.parametrize(("seed", "gentle"), [(1, True), (2, False), (3, False)])
def test_the_demo_from_library_cards_plays_exactly_as_the_demo_file(tmp_path: Path, seed: int, gentle: bool) -> None:
    library = library_for(table(tmp_path))  # no card of its own: the examples
    by_file, file_text = load_scenario(DEMO, library)
    by_cards, kept = load_scenario(CARDS_DEMO, library)
    assert file_text == demo_text()  # a scenario that names no card is kept exactly as written
    assert by_cards == by_file and "card =" not in kept
    cards_file = tmp_path / "endless_cards.toml"
    cards_file.write_text(endless(CARDS_DEMO.read_text(encoding="utf-8")), encoding="utf-8")
    demo, named = endless(demo_text()), read_scenario_text(cards_file, library)
    events = events_of(demo, 300, seed, gentle)
    assert len(events) == 300 or not gentle
    assert len(events) > 60
    assert states(named, events) == states(demo, events)  # every state, from the start to the last event


def test_a_card_typed_as_a_file_and_the_same_card_inline_give_the_same_game(tmp_path: Path) -> None:
    library = library_for(table(tmp_path, {"enemies/captain": CAPTAIN}))
    inline = with_enemy(demo_text(), CAPTAIN_INLINE)
    named_file = tmp_path / "named.toml"
    named_file.write_text(with_enemy(demo_text(), CAPTAIN_NAMED), encoding="utf-8")
    named = read_scenario_text(named_file, library)
    captain = parse_scenario(named).enemies[-1]
    assert (captain.id, captain.health, captain.models, captain.attacks[0].name) == ("captain", 9, 2, "Sabre")
    assert parse_scenario(named) == parse_scenario(inline)
    events = events_of(endless(inline), 200, seed=4, gentle=False)
    assert any(e.get("group") == "captain" for e in events)
    assert states(endless(named), events) == states(endless(inline), events)


def test_a_tables_own_card_wins_over_the_example_of_the_same_id(tmp_path: Path) -> None:
    guard = (EXAMPLES / "enemies" / "papal_guard.toml").read_text(encoding="utf-8").replace("health = 6", "health = 11")
    library = library_for(table(tmp_path, {"enemies/papal_guard": guard}))
    scenario, _ = load_scenario(CARDS_DEMO, library)
    assert [e.health for e in scenario.enemies] == [11, 2, 4]
    assert library.find("enemy", "papal_guard") == (tmp_path / "cards" / "enemies" / "papal_guard.toml", "table")


def test_a_game_keeps_its_cards_whole_whatever_becomes_of_the_library(nova: Nova, tmp_path: Path) -> None:
    state = table(tmp_path, {"enemies/captain": CAPTAIN})
    scenario = tmp_path / "named.toml"
    scenario.write_text(endless(with_enemy(demo_text(), CAPTAIN_NAMED)), encoding="utf-8")
    nova.json("session", "new", "--scenario", scenario, "--state", state)
    events = events_of(endless(with_enemy(demo_text(), CAPTAIN_INLINE)), 120, seed=5, gentle=False)
    half = len(events) // 2
    nova.json("session", "apply", "--state", state, stdin="".join(json.dumps(e) + "\n" for e in events[:half]))
    (tmp_path / "cards" / "enemies" / "captain.toml").write_text(CAPTAIN.replace("health = 7", "health = 1"))
    (tmp_path / "cards" / "enemies" / "captain.toml").unlink()
    nova.json("session", "apply", "--state", state, stdin="".join(json.dumps(e) + "\n" for e in events[half:]))
    shown = nova.json("session", "show", "--state", state)[0]
    assert shown == states(endless(with_enemy(demo_text(), CAPTAIN_INLINE)), events)[-1]
    exported = nova("session", "export", "--state", state)[1].splitlines()
    assert 'card = "captain"' not in json.loads(exported[0])["scenario_text"]


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


NAMED = with_enemy(demo_text(), CAPTAIN_NAMED)
REF = 'card = "captain"'


@pytest.mark.parametrize(("scenario", "card", "where", "message"), [
    (NAMED.replace('card = "captain"', 'card = "captian"'), CAPTAIN, ("scenario", 'card = "captian"'),
     "enemies[4].card: no enemy card \"captian\" in the library ({cards}/{{heroes,enemies}} or {examples}/{{heroes,enemies}}); "
     "did you mean 'captain'?"),
    (NAMED.replace("health = 9", "health = 9\nclass = \"Captain\""), CAPTAIN, ("scenario", 'class = "Captain"'),
     "enemies[4].class: unknown field; expected one of id, name, rank, faction, swiftness, physical_defense, "
     "psychic_defense, health, control_area, models, attacks, target_priority, loot, generic_skills, immune_to_critical, "
     "goal, draft_models"),
    (NAMED.replace("health = 9", "health = 90"), CAPTAIN, ("scenario", "health = 90"),
     "enemies[4].health: expected a number from 1 to 50, got 90"),
    (NAMED.replace('id = "sofia"', 'id = "sofia"\ncard = "captain"'), CAPTAIN, ("scenario", 'card = "captain"'),
     "heroes[2].card: no hero card \"captain\" in the library ({cards}/{{heroes,enemies}} or {examples}/{{heroes,enemies}}); "
     "\"captain\" is an enemy card: name it in [[enemies]] or [[reserves]]"),
    (NAMED, CAPTAIN.replace("health = 7", "health = 70"), ("card", "health = 70"),
     "enemy.health: expected a number from 1 to 50, got 70"),
    (NAMED, CAPTAIN.replace("health = 7", "health = 7\nmodels = 2"), ("card", "models = 2"),
     "enemy.models: the mission's, not the card's: give it in the scenario, beside `card = ...`"),
    (NAMED, CLASSIC_CAPTAIN, ("scenario", 'card = "captain"'),
     'enemies[4].card: "captain" is a card of the first edition (edition = "classic"), this scenario is of the Renaissance'),
    (NAMED, CAPTAIN.replace('range = 1', 'range = 1,'), ("card", "range = 1,"),
     "not valid TOML: "),  # then as tomllib words it
    (NAMED, CAPTAIN.replace('id = "captain"', 'id = "capitano"'), ("card", 'id = "capitano"'),
     "enemy.id: \"capitano\" is not the name of its file (captain.toml): a card file is named after its card's id (capitano.toml)"),
    (NAMED, CAPTAIN.replace("[enemy]", "[hero]").replace("enemy.attacks", "hero.attacks"), ("card", "[hero]"),
     "hero: a hero card in the enemies folder: move it to heroes/"),
])  # fmt: skip
def test_a_wrong_card_or_reference_is_said_at_its_file_and_line_and_nothing_starts(
        nova: Nova, tmp_path: Path, scenario: str, card: str, where: tuple[str, str], message: str) -> None:  # fmt: skip
    state = table(tmp_path, {"enemies/captain": card})
    scenario_file = tmp_path / "named.toml"
    scenario_file.write_text(scenario, encoding="utf-8")
    card_file = tmp_path / "cards" / "enemies" / "captain.toml"
    code, out, err = nova("session", "new", "--scenario", scenario_file, "--state", state)
    assert code == 1 and out == "" and not state.exists()
    file, text = (scenario_file, scenario) if where[0] == "scenario" else (card_file, card)
    said = f"{file}:{line_of(text, where[1])}: " + message.format(cards=tmp_path / "cards", examples=EXAMPLES)
    assert any(line.removeprefix("nova-table session new: ").startswith(said) for line in err.splitlines()), err
    if where[0] == "card":  # and the reference that names it, at its own line
        assert f"{scenario_file}:{line_of(scenario, REF)}: enemies[4].card: the card \"captain\" cannot be used" in err
    assert "Traceback" not in err and "horologium" not in err  # its tokens are right: no echo of the card's mistake


def test_every_problem_is_said_at_once_the_scenarios_first_then_its_cards(tmp_path: Path) -> None:
    library = library_for(table(tmp_path, {"enemies/captain": CAPTAIN.replace("threshold = 5", "threshold = 9")}))
    scenario = NAMED.replace("hour = 1 ", "hour = 13 ")
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(scenario, "named.toml", library)
    card = tmp_path / "cards" / "enemies" / "captain.toml"
    assert str(raised.value).splitlines() == [
        f"named.toml:{line_of(scenario, 'hour = 13')}: horologium.hour: expected a number from 1 to 12, got 13",
        f"named.toml:{line_of(scenario, REF)}: enemies[4].card: the card \"captain\" cannot be used: "
        f"{card} has mistakes, each said at its line",
        f"{card}:{line_of(CAPTAIN, 'threshold = 5')}: enemy.attacks[1].threshold: expected a number from 2 to 8, got 9",
    ]


def test_a_saved_game_whose_scenario_names_a_card_is_refused_not_read_from_the_library() -> None:
    with pytest.raises(ScenarioError, match=r"saved.toml:\d+: heroes\[1\].card: names a card of the library, in a scenario saved"):
        FOLDS("mission", CARDS_DEMO.read_text(encoding="utf-8"), "saved.toml")


def test_the_example_cards_are_marked_and_make_a_scenario_that_names_them_an_example(tmp_path: Path) -> None:
    library = library_for(table(tmp_path, {"enemies/captain": CAPTAIN}))
    cards = [library.card(kind, ident) for kind, ident, _, origin, _ in library.entries() if origin == "examples"]
    assert len(cards) == 7 and all(card.example_values for card in cards)
    plain = demo_text().replace("example_values = true\n", "")
    assert not parse_scenario(with_enemy(plain, CAPTAIN_NAMED), "x.toml", library).example_values  # captain is no example
    assert parse_scenario(plain.replace('id = "sofia"', 'card = "sofia"'), "x.toml", library).example_values


def test_a_field_given_beside_a_card_the_library_has_not_is_still_checked(tmp_path: Path) -> None:
    library = library_for(table(tmp_path))
    scenario = CARDS_DEMO.read_text(encoding="utf-8").replace('card = "slingers"', 'card = "slinger"\nhealth = 80')
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(scenario, "typo.toml", library)
    assert [line.split(": ", 2)[1] for line in str(raised.value).splitlines()] == ["enemies[2].card", "enemies[2].health"]
    assert str(raised.value).endswith(f"typo.toml:{line_of(scenario, 'health = 80')}: enemies[2].health: expected a number from 1 to 50, got 80")


def test_play_starts_a_scenario_that_names_cards_from_the_library_beside_its_state_file(nova: Nova, tmp_path: Path) -> None:
    from assistant.ui.table import open_saved_game

    state = table(tmp_path / "pi", {"enemies/captain": CAPTAIN})  # a card of this table's own, not an example
    scenario = write_scenario(tmp_path / "named.toml", with_enemy(demo_text(), CAPTAIN_NAMED))
    open_saved_game(state, scenario, new=True).close()
    header = json.loads(nova("session", "export", "--state", state)[1].splitlines()[0])
    assert parse_scenario(header["scenario_text"]) == parse_scenario(with_enemy(demo_text(), CAPTAIN_INLINE))


def write_scenario(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_reserve_and_a_first_edition_scenario_name_cards_as_their_tables_do(tmp_path: Path) -> None:
    from tests.session.test_scenario_file import CLASSIC

    guard = CLASSIC[CLASSIC.index("[[enemies]]"): CLASSIC.index("[[goals]]")]
    card = 'format = 1\nedition = "classic"\n\n' + guard.replace("[[enemies]]", "[enemy]").replace("enemies.attacks", "enemy.attacks")
    library = library_for(table(tmp_path, {"enemies/swiss_guard": card.replace('goal = "gate"\n', "")}))
    named = CLASSIC.replace(guard, '[[enemies]]\ncard = "swiss_guard"\ngoal = "gate"\n\n')
    assert parse_scenario(named, "classic.toml", library) == parse_scenario(CLASSIC, "classic.toml")
    reserve = '\n[[reserves]]\ncard = "slingers"\nid = "militia"\nmodels = 2\n'
    inline = """
[[reserves]]
id = "militia"
name = "Slingers"
rank = "troop"
faction = "Rome"
swiftness = 5
control_area = 6
physical_defense = 4
psychic_defense = 4
health = 2
models = 2
target_priority = ["closest", "standard"]
loot = ["Elementum"]
generic_skills = ["Dodge"]

[[reserves.attacks]]
name = "Sling"
kind = "physical"
ap = 2
range = [2, 6]
hits = 1
threshold = 5
"""
    by_card = parse_scenario(demo_text() + reserve, "r.toml", library)
    assert by_card == parse_scenario(demo_text() + inline, "r.toml") and by_card.reserves[0].id == "militia"


def test_attacks_given_beside_a_card_replace_all_of_its_attacks(tmp_path: Path) -> None:
    library = library_for(table(tmp_path))
    mace = '[[enemies.attacks]]\nname = "Mace"\nkind = "physical"\nap = 2\nrange = 1\nhits = 4\nthreshold = 4\n\n'
    scenario = CARDS_DEMO.read_text(encoding="utf-8").replace('goal = "relic"\n', 'goal = "relic"\n\n' + mace)
    guard = parse_scenario(scenario, "mace.toml", library).enemies[0]
    assert (guard.id, guard.health, [(a.name, a.hits) for a in guard.attacks]) == ("papal_guard", 6, [("Mace", 4)])
