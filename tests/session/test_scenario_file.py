"""Scenario TOML files: the demo skirmish, both editions, and wrong files reported with file, line, field and what was expected."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from assistant.demo.autoplay import play
from assistant.rules.game import apply, new_game
from assistant.rules.horologium import Clock
from assistant.rules.scenario import TokenPlacement
from assistant.rules.state import GameState
from assistant.session.errors import ScenarioError
from assistant.session.scenario_file import load_scenario, parse_scenario
from assistant.session.toml_lines import key_lines, line_of
from tests.session.conftest import DEMO, FOLDS, demo_text, fold_state

CLASSIC = """
edition = "classic"
title = "The Swiss Guard"

[horologium]
hour = 2
minute = 3

[horologium.tokens]
scum = 3
novice = 5
swiss_guard = 4

[[heroes]]
id = "scum"
name = "Scum"
class = "Scum"
rapidity = 6
mastery = "d8"
physical = 3
mind = 2
wounds = 5
threat = 6

[[heroes]]
id = "novice"
name = "Novice"
class = "Novice"
rapidity = 4
mastery = "d6"
physical = 2
mind = 3
wounds = 4

[[enemies]]
id = "swiss_guard"
name = "Swiss Guard"
rank = "troop"
faction = "Rome"
rapidity = 4
control_area = 3
physical_defense = 5
mental_defense = 6
wounds = 3
goal = "gate"

[[enemies.attacks]]
name = "Soulfire"
kind = "mental"
range = 6
contrast = 2
threshold = 5
effect_wounds = 3

[[goals]]
id = "gate"
text = "Hold the gate."
threat = 5
"""


def test_the_demo_skirmish_is_a_small_renaissance_fight_with_example_values() -> None:
    scenario, text = load_scenario(DEMO)
    assert text == demo_text()
    assert scenario.edition == "renaissance" and scenario.example_values
    assert 3 <= len(scenario.heroes) <= 4 and 2 <= len(scenario.enemies) <= 3
    placed = {t.token for t in scenario.horologium.tokens if t.side in ("hero", "enemy")}
    assert placed == {h.id for h in scenario.heroes} | {e.id for e in scenario.enemies}
    assert scenario.events and scenario.end is not None and scenario.goals
    assert all(e.target_priority[-1] == "standard" for e in scenario.enemies)
    assert {a.kind for e in scenario.enemies for a in e.attacks} == {"physical", "psychic"}


def test_a_first_edition_file_maps_onto_the_same_shape() -> None:
    scenario = parse_scenario(CLASSIC, "classic.toml")
    scum, novice = scenario.heroes
    assert (scum.swiftness, scum.die, scum.physique, scum.dexterity, scum.mind, scum.health, scum.threat) == (6, 8, 3, 3, 2, 5, 6)
    assert novice.die == 6
    guard = scenario.enemy("swiss_guard")
    assert (guard.swiftness, guard.psychic_defense, guard.health, guard.goal) == (4, 6, 3, "gate")
    (soulfire,) = guard.attacks
    assert (soulfire.kind, soulfire.contrast, soulfire.range_min, soulfire.range_max, soulfire.defended_with) == (
        "psychic", 2, 1, 6, "mind")  # fmt: skip
    assert soulfire.ap == 0  # first-edition cards print no AP cost
    assert TokenPlacement("swiss_guard", 4, "enemy") in scenario.horologium.tokens


def test_a_heros_resistance_renaissance_or_armour_first_edition_is_read_into_the_spec() -> None:
    """Renaissance "Wound Tokens and Equipment": the X of the Equipment with Resistance X; first edition "Weapons and
    armour": the Wo of the armour card (the Squire's light armour has 1 Wo). Left out, it is 0."""
    text = mutate('health = 6\nthreat = 0', 'health = 6\nthreat = 0\nresistance = 2')
    valerio, sofia, *_ = parse_scenario(text).heroes
    assert (valerio.resistance, sofia.resistance) == (2, 0)
    # the Papal Guard's Halberd, 3 hits, none saved: 2 on Valerio's Equipment, 1 on Valerio, as the game saves it,
    # and its Critical 1's extra Wound (3 inflicted, 1 not on the Equipment: its Effects apply) on Valerio
    saved = fold_state(text, [{"type": "enemy_attack", "group": "papal_guard", "hero": "valerio", "dice": [1, 1, 1, 1]}])
    assert {k: saved["heroes"][0][k] for k in ("id", "wounds", "equipment_wounds")} == {"id": "valerio", "wounds": 2, "equipment_wounds": 2}
    scum, novice = parse_scenario(CLASSIC.replace("wounds = 5\n", "wounds = 5\narmour = 1\n"), "classic.toml").heroes
    assert (scum.resistance, novice.resistance) == (1, 0)
    with pytest.raises(ScenarioError, match=r"heroes\[1\].resistance: unknown field"):
        parse_scenario(CLASSIC.replace("wounds = 5\n", "wounds = 5\nresistance = 1\n"), "classic.toml")


def line_number(text: str, fragment: str) -> int:
    """The line where `fragment` first appears in `text`."""
    return text[: text.index(fragment)].count("\n") + 1


def mutate(old: str, new: str, count: int = 1) -> str:
    text = demo_text()
    assert old in text
    return text.replace(old, new, count)


WRONG: list[tuple[str, str, str, str, str]] = [
    # (replace this, with this, field reported, words expected, the line is where this is)
    ('swiftness = 6\n', 'swiftnes = 6\n', "heroes[2].swiftnes", "unknown field; did you mean 'swiftness'?", "swiftnes = 6"),
    ('health = 6\nthreat = 0', 'health = "six"\nthreat = 0', "heroes[1].health", 'expected a whole number, got "six"', 'health = "six"'),
    ('mind = 2\n', 'mind = 12\n', "heroes[1].mind", "expected a number from 1 to 9, got 12", "mind = 12"),
    ('rank = "elite"', 'rank = "boss"', "enemies[1].rank", 'expected "troop", "elite" or "monster", got "boss"', 'rank = "boss"'),
    ('kind = "psychic"', 'kind = "psichic"', "enemies[3].attacks[1].kind", 'expected "physical" or "psychic"', 'kind = "psichic"'),
    ('range = [2, 6]', 'range = [6, 2]', "enemies[2].attacks[1].range", "expected [min, max] with 0 <= min <= max <= 30, got [6, 2]", "range = [6, 2]"),
    ('["closest", "standard"]', '["closest", "standrd"]', "enemies[2].target_priority[2]", "did you mean 'standard'?", '"standrd"'),
    ('goal = "relic"', 'goal = "relik"', "enemies[1].goal", "no [[goals]] has the id 'relik'; did you mean 'relic'?", 'goal = "relik"'),
    ('sofia = 2', 'sofa = 2', "horologium.tokens.sofa", "did you mean 'sofia'?", "sofa = 2"),
    ('alchemist = 6', 'alchemist = 13', "horologium.tokens.alchemist", "expected a sector from 1 to 12, got 13", "alchemist = 13"),
    ('hour = 2\nminute = 6', 'hour = 2\nminute = 0', "events[1].minute", "expected a number from 1 to 12, got 0", "minute = 0"),
    ('hits = 3\n', '', "enemies[1].attacks[1].hits", "missing; expected a number from 1 to 20", "[[enemies.attacks]]\nname = \"Halberd\""),
    ('example_values = true', 'example_values = "yes"', "example_values", 'expected true or false, got "yes"', "example_values"),
    ('format = 1', 'format = 2', "format", "this file is format 2; this Nova Table reads format 1", "format = 2"),
    ('health = 6\nthreat = 0', 'health = 6\nthreat = 0\nresistance = 21', "heroes[1].resistance", "expected a number from 0 to 20, got 21", "resistance = 21"),
    ('health = 6\nthreat = 0', 'health = 6\nthreat = 0\nresistance = "1"', "heroes[1].resistance", 'expected a whole number, got "1"', "resistance ="),
    ('health = 6\nthreat = 0', 'health = 6\nthreat = 0\narmour = 1', "heroes[1].armour", "unknown field; expected one of id, name, class, swiftness, dexterity, physique, mind, health, threat, resistance", "armour = 1"),
    # text the screen cannot draw (a NUL stopped pygame mid-game), a Mystery token's id, two attacks of one name
    ('name = "Valerio"', 'name = "Val\\u0000erio"', "heroes[1].name", "a control character (U+0000) at character 4", 'name = "Val'),
    ('name = "Sling"', 'name = "Sli\\u0007ng"', "enemies[2].attacks[1].name", "a control character (U+0007) at character 4", 'Sli\\u0007'),
    ('valerio = 1', 'valerio = 1\n"mystery-1" = 5', "horologium.tokens.mystery-1", "no hero or enemy group has this id", '"mystery-1" = 5'),
    ('[[goals]]', '[[enemies.attacks]]\nname = "Quicksilver Mist"\nkind = "physical"\nap = 1\nrange = 1\nhits = 1\nthreshold = 5\n\n[[goals]]',
     "enemies[3].attacks[2].name", '"Quicksilver Mist" is already the name of enemies[3].attacks[1]', 'name = "Quicksilver Mist"\nkind = "physical"'),
    ('id = "bells"', 'id = "sofia"', "events[1].id", "event id 'sofia' is already used at heroes[2]", 'id = "sofia"\nhour'),
    ('hour = 2\nminute = 6', 'hour = 3\nminute = 12', "events[1]", "at hour 3, sector 12: the hands, which start at hour 1, sector 12, reach it only after the mission's end ([end] at hour 3, sector 12)", "[[events]]"),
]


@pytest.mark.parametrize(("old", "new", "field", "words", "where"), WRONG, ids=[w[2] for w in WRONG])
def test_a_wrong_field_is_reported_with_its_line(old: str, new: str, field: str, words: str, where: str, tmp_path: Path) -> None:
    text = mutate(old, new)
    path = tmp_path / "wrong.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    prefix = f"{path}:{line_number(text, where)}: {field}: "
    assert [line for line in str(caught.value).splitlines() if line.startswith(prefix) and words in line], str(caught.value)
    assert len(caught.value.problems) == 1, str(caught.value)  # no knock-on complaints


def deletions(text: str) -> list[tuple[str, str]]:
    """(what, the text without it): each top-level key, each table, and each name's tables all together."""
    lines = text.split("\n")
    headers = [n for n, line in enumerate(lines) if line.startswith("[")]
    cuts: list[tuple[str, set[int]]] = []
    for n, line in enumerate(lines[: headers[0]]):
        key = re.match(r"([a-z_]+) *=", line)
        if key:
            end = next((m for m in range(n + 1, headers[0]) if re.match(r"[a-z_]+ *=|\s*$", lines[m])), headers[0])
            cuts.append((key.group(1), set(range(n, end))))
    spans = [(lines[h].split("#")[0].strip(), h, ([*headers[1:], len(lines)])[i]) for i, h in enumerate(headers)]
    cuts += [(f"{name} at line {h + 1}", set(range(h, end))) for name, h, end in spans]
    for root in dict.fromkeys(name.strip("[]").split(".")[0] for name, _, _ in spans):
        cuts.append((f"every [{root}...]", {n for name, h, end in spans if name.strip("[]").split(".")[0] == root
                                            for n in range(h, end)}))  # fmt: skip
    return [(what, "\n".join(line for n, line in enumerate(lines) if n not in cut)) for what, cut in cuts]


DELETIONS = deletions(demo_text())


@pytest.mark.parametrize("text", [text for _, text in DELETIONS], ids=[what for what, _ in DELETIONS])
def test_every_problem_of_a_deletion_has_its_line(text: str) -> None:
    """A field or table deleted from the demo: every problem is FILE:LINE: FIELD: ... (issue 65 counted 22 without a
    line: a missing top-level field or [[heroes]], a table whose header was deleted but not its sub-tables'."""
    try:
        parse_scenario(text, "cut.toml")
    except ScenarioError as error:
        for line in str(error).splitlines():
            assert re.match(r"cut\.toml:[0-9]+: [a-z_]", line), line


@pytest.mark.parametrize(("what", "message"), [
    ("edition", 'cut.toml:1: edition: missing; expected "renaissance" or "classic"'),
    ("title", "cut.toml:1: title: missing; expected text in quotes"),
    ("every [horologium...]", "cut.toml:1: horologium: missing; expected a table"),
    ("[horologium] at line 19", "cut.toml:19: horologium.hour: missing; expected a number from 1 to 12"),  # [horologium.tokens]'s
    ("every [heroes...]", "cut.toml:1: heroes: missing; expected [[heroes]] tables"),
    ("[[enemies.attacks]] at line 90", "cut.toml:74: enemies[1].attacks: missing; expected [[enemies.attacks]] tables"),
])
def test_a_missing_field_is_said_at_the_line_of_its_table(what: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(dict(DELETIONS)[what], "cut.toml")
    assert any(line.startswith(message) for line in str(caught.value).splitlines()), str(caught.value)


def test_a_scenario_holds_at_most_twelve_heroes() -> None:
    """`assistant/rules/bounds.py`: four times the Heroes of either edition; the rest are not read."""
    hero = demo_text().split("[[heroes]]")[1].split("[[")[0]
    text = mutate("[[heroes]]", "".join(f"[[heroes]]{hero.replace('valerio', f'h{n}')}" for n in range(11)) + "[[heroes]]")
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "many.toml")
    thirteenth = [n for n, line in enumerate(text.splitlines(), start=1) if line == "[[heroes]]"][12]
    assert f"many.toml:{thirteenth}: heroes[13]: at most 12 heroes (both editions are played with 4), not 15" in str(caught.value)


def test_a_duplicate_id_is_reported_where_it_is_written_twice() -> None:
    text = mutate('id = "sofia"', 'id = "valerio"')
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "twice.toml")
    duplicate = line_number(text, 'id = "valerio"\nname = "Sofia"')
    assert f"twice.toml:{duplicate}: heroes[2].id: hero id 'valerio' is already used at heroes[1]" in str(caught.value)
    # and Sofia's token now names nobody
    assert f"twice.toml:{line_number(text, 'sofia = 2')}: horologium.tokens.sofia: no hero or enemy group" in str(caught.value)


def test_an_id_of_a_mystery_token_is_refused_where_it_is_written() -> None:
    """The reader names the Mystery tokens "mystery-1", ...: a hero of that id met one on the Horologium (a traceback)."""
    text = demo_text().replace("valerio", "mystery-1")
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "mystery.toml")
    line = line_number(text, 'id = "mystery-1"')
    assert str(caught.value) == (f"mystery.toml:{line}: heroes[1].id: "
                                 '"mystery-1" is the id of a Mystery token ([horologium] mystery): choose another')


def test_timed_events_are_within_the_mission() -> None:
    """An event the hands reach only at or after the end would never come; an earlier hour is on the hands' next round."""
    late = demo_text().replace("hour = 1        # the hour hand", "hour = 3        # the hour hand")
    late = late.replace("[end]\nhour = 3", "[end]\nhour = 5")
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(late, "late.toml")
    assert str(caught.value) == (f"late.toml:{line_number(late, '[[events]]')}: events[1]: at hour 2, sector 6: the hands, "
                                 "which start at hour 3, sector 12, reach it only after the mission's end ([end] at hour 5, sector 12)")
    assert parse_scenario(late.replace("hour = 2\nminute = 6", "hour = 3\nminute = 12"), "late.toml").events[0].hour == 3


def play_until_over(state: GameState) -> GameState:
    """A gentle game (nobody is wounded) played until it ends."""
    for event in play(state, random.Random(7), 3000, gentle=True):
        state = apply(state, event)
    return state


def test_an_end_hour_past_xii_is_on_the_next_round_of_the_hour_hand() -> None:
    """"End of a Mission": the hands reach the time; a start at hour 11 and an end at hour 1 is two hours on (issue 49.7)."""
    text = demo_text().replace("hour = 1        # the hour hand", "hour = 11       # the hour hand")
    text = text.replace("[end]\nhour = 3", "[end]\nhour = 1").replace("hour = 2\nminute = 6", "hour = 12\nminute = 6")
    scenario = parse_scenario(text, "wrap.toml")
    state = new_game(scenario)
    assert state.clock.hour == 11 and state.over is None
    state = play_until_over(state)
    assert state.over == "time" and state.clock == Clock(13, 12)  # hour 13 on the counter is I on the dial
    assert "bells" in state.fired
    with pytest.raises(ScenarioError, match="over before it starts"):
        parse_scenario(text.replace("[end]\nhour = 1", "[end]\nhour = 11"), "same.toml")


def test_every_problem_is_listed_not_only_the_first() -> None:
    text = mutate('swiftness = 6\n', 'swiftnes = 6\n').replace('rank = "troop"', 'rank = "grunt"').replace('loot = ["Elementum"]', 'loot = "Elementum"')
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "many.toml")
    fields = [p.field for p in caught.value.problems]
    assert fields == ["heroes[2].swiftnes", "enemies[2].rank", "enemies[2].loot"]
    assert [p.line for p in caught.value.problems] == sorted(p.line for p in caught.value.problems if p.line)


def test_a_syntax_error_gets_the_line_from_tomllib() -> None:
    text = mutate('name = "Sofia"', 'name = "Sofia')
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "broken.toml")
    line = line_number(text, 'name = "Sofia')
    assert str(caught.value).startswith(f"broken.toml:{line}: not valid TOML: ")


def test_text_that_is_not_utf8_and_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(demo_text().replace("Valerio", "Val\xe9rio").encode("latin-1"))
    line = line_number(demo_text(), 'name = "Valerio')
    with pytest.raises(ScenarioError, match=rf"latin1.toml:{line}: not UTF-8"):
        load_scenario(path)
    with pytest.raises(ScenarioError, match="cannot read the file"):
        load_scenario(tmp_path / "absent.toml")


def leaves(data: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    if isinstance(data, dict):
        return [leaf for key, value in data.items() for leaf in leaves(value, path + (key,))] or [path]
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        return [leaf for index, item in enumerate(data) for leaf in leaves(item, path + (index,))]
    return [path]


def test_every_key_of_the_demo_is_found_on_its_own_line() -> None:
    text = demo_text()
    lines = key_lines(text)
    source = text.splitlines()
    paths = leaves(tomllib.loads(text))
    assert len(paths) > 100
    for path in paths:
        key = next(part for part in reversed(path) if isinstance(part, str))
        number = line_of(lines, path)
        assert number is not None and source[number - 1].lstrip().startswith(key), (path, number)


def test_multi_line_arrays_give_each_element_its_line() -> None:
    text = 'victory = [\n  "one",  # first\n  "two", "three",\n  """four\n""",\n]\nafter = 1\n[t]\nx = [1, [2, 3]]\n'
    lines = key_lines(text)
    assert [lines[("victory", i)] for i in range(4)] == [2, 3, 3, 4]
    assert lines[("after",)] == 7 and lines[("t", "x")] == 9 and lines[("t", "x", 1)] == 9


HUNT_TABLES = '''
[[reserves]]
id = "bravi"
name = "Bravi"
rank = "troop"
faction = "Rome"
swiftness = 5
control_area = 4
physical_defense = 4
psychic_defense = 4
health = 2
models = 4

[[reserves.attacks]]
name = "Stiletto"
kind = "physical"
ap = 2
range = 1
hits = 1
threshold = 4

[[events]]
id = "reinforcements"
hour = 2
minute = 3
text = "Draft: Rome, Troop, 2 squares at the east end of the bridge."

[events.draft]
faction = "Rome"
rank = "troop"
squares = 2
place = "east end of the bridge"
exclude = ["slingers"]

[prey]
group = "alchemist"

[[prey.deck]]
number = 1
ap = 3
text = "The Alchemist steps back and hurls a flask at the Target Hero."

[prey.deck.attack]
name = "Flask"
kind = "physical"
range = [1, 4]
hits = 2
threshold = 5

[[prey.deck]]
number = 2
ap = 4
text = "The Alchemist runs toward the farthest Hero."
target = "farthest"
'''


def hunt_text() -> str:
    """The demo's heroes, enemies and Horologium (its goal, event and end left out), with a Stealth
    track, a reserve, an event with an Enemy Draft, and the alchemist as the Prey of a Hunt."""
    demo = demo_text().split("[[goals]]")[0].replace('goal = "relic"\n', "")
    top_level = demo.replace("example_values = true\n", "example_values = true\nstealth = [4, 5, 6]\n")
    return top_level + HUNT_TABLES


def test_reserves_enemy_drafts_stealth_and_a_prey_deck() -> None:
    scenario = parse_scenario(hunt_text(), "hunt.toml")
    assert scenario.stealth == (4, 5, 6)
    (bravi,) = scenario.reserves
    assert (bravi.id, bravi.models, bravi.attacks[0].range_max) == ("bravi", 4, 1)
    assert scenario.enemy("bravi") is bravi
    draft = scenario.events[-1].draft
    assert draft is not None and (draft.faction, draft.rank, draft.squares, draft.exclude) == ("Rome", "troop", 2, ("slingers",))
    assert draft.sector is None
    assert scenario.prey is not None and scenario.prey.group == "alchemist"
    first, second = scenario.prey.deck
    assert (first.number, first.ap, first.target) == (1, 3, "target_hero")
    assert first.attack is not None and (first.attack.hits, first.attack.ap, first.attack.range_max) == (2, 0, 4)
    assert (second.target, second.attack) == ("farthest", None)
    FOLDS("mission", hunt_text(), "hunt.toml").initial()  # and the rules core sets it up


HUNT_WRONG: list[tuple[str, str, str, str, str]] = [
    ('group = "alchemist"', 'group = "alchemyst"', "prey.group", "did you mean 'alchemist'?", 'group = "alchemyst"'),
    ("number = 2", "number = 3", "prey.deck[2].number", "expected card 2", "number = 3"),
    ('target = "farthest"', 'target = "furthest"', "prey.deck[2].target", "did you mean 'farthest'?", 'target = "furthest"'),
    ('exclude = ["slingers"]', 'exclude = ["slinger"]', "events[1].draft.exclude[1]", "did you mean 'slingers'?", 'exclude = ["slinger"]'),
    ('squares = 2', 'squares = 0', "events[1].draft.squares", "expected a number from 1 to 20, got 0", "squares = 0"),
    ("stealth = [4, 5, 6]", "stealth = [4, 9, 6]", "stealth[2]", "expected a die result from 1 to 8, got 9", "stealth = [4, 9, 6]"),
    ("alchemist = 6", "alchemist = 6\nbravi = 7", "horologium.tokens.bravi", "enters through an Enemy Draft", "bravi = 7"),
    ("hits = 1\nthreshold = 4", "hits = 1\nthreshhold = 4", "reserves[1].attacks[1].threshhold", "did you mean 'threshold'?", "threshhold"),
    ('faction = "Rome"\nrank = "troop"\nsquares', 'faction = "Genoa"\nrank = "troop"\nsquares', "events[1].draft",
     'no [[enemies]] or [[reserves]] card is of faction "Genoa" and rank "troop"', "[events.draft]"),
    ('target = "farthest"', 'target = "none"\n\n[prey.deck.attack]\nname = "Kick"\nkind = "physical"\nrange = 1\nhits = 1\nthreshold = 5',
     "prey.deck[2].attack", 'a card with target "none" attacks nobody', "[prey.deck.attack]\nname = \"Kick\""),
    ('name = "Flask"', 'name = "Quicksilver Mist"', "prey.deck[1].attack.name", '"Quicksilver Mist" is already the name of enemies[3].attacks[1]', 'name = "Quicksilver Mist"\nkind = "physical"'),
    ('group = "alchemist"', 'group = "slingers"', "enemies[2].models", "the Prey is one model, got 3", "models = 3"),
]


@pytest.mark.parametrize(("old", "new", "field", "words", "where"), HUNT_WRONG, ids=[w[2] for w in HUNT_WRONG])
def test_a_wrong_hunt_draft_or_stealth_field_is_reported_with_its_line(old: str, new: str, field: str, words: str, where: str) -> None:
    text = hunt_text()
    assert old in text
    text = text.replace(old, new, 1)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "hunt.toml")
    prefix = f"hunt.toml:{line_number(text, where)}: {field}: "
    assert [line for line in str(caught.value).splitlines() if line.startswith(prefix) and words in line], str(caught.value)
    assert len(caught.value.problems) == 1, str(caught.value)


def test_a_byte_order_mark_and_unicode_line_separators_in_strings_do_not_move_the_lines(tmp_path: Path) -> None:
    """Some editors start UTF-8 with a byte-order mark (tomllib: "Invalid statement"); U+2028 and U+2029
    are no line ends in TOML, and a problem after them was reported some lines too far down."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + demo_text().encode())
    assert load_scenario(path)[0].title == parse_scenario(demo_text()).title
    text = mutate('Ponte Sisto"', 'Ponte Sisto \u2028 \u2029"').replace("health = 6\nthreat = 0", "health = 0\nthreat = 0")
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "lines.toml")
    assert str(caught.value) == f"lines.toml:{line_number(text, 'health = 0')}: heroes[1].health: expected a number from 1 to 20, got 0"
    with pytest.raises(ScenarioError, match="^'': no file named"):
        load_scenario("")


def test_a_long_wrong_value_is_quoted_short() -> None:
    """A megabyte of text where a rank is expected: the message quotes its first 40 characters, not all of it."""
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(mutate('rank = "elite"', 'rank = "' + "b" * 1_000_000 + '"'), "long.toml")
    assert str(caught.value) == f'long.toml:77: enemies[1].rank: expected "troop", "elite" or "monster", got "{"b" * 40}..."'


def test_a_campaign_mission_is_said_so_and_only_a_renaissance_one() -> None:
    """`campaign = true`: its end goes onto the campaign sheet (the Renaissance's): a first-edition one is refused."""
    text = demo_text()
    assert parse_scenario(text).campaign is False
    assert parse_scenario("campaign = true\n" + text).campaign is True
    classic = (Path(__file__).resolve().parents[1] / "ui" / "scenarios" / "classic.toml").read_text(encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"classic.toml:1: campaign: the campaign sheet is the Renaissance's"):
        parse_scenario("campaign = true\n" + classic, "classic.toml")
