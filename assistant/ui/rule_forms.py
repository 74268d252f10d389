"""The rules a table meets outside the usual turn, on the screen (issue 49): a Dash or a Forced Movement, a Reaction
Skill's attack, Status Tokens, Location Cards, a Swiftness changed mid-mission, Reagents drawn into the Loot, the
Loot split at the end of a mission, and the first-edition Out of action roll.

Pure (no pygame). Three small hooks reach here: `rule_items` adds the menu's buttons (`screens.TableScreen.refresh`),
`rule_form` makes their forms (`intents.make_form`), and the `rule_fix_*` functions add entries to Fix
(`action_forms.fix_form`). The events are the rules core's: `declare_move` (`movement` "dash" or "forced"),
`hero_attack` with `reaction: true`, `status`, `location`, `swiftness`, `loot`, `end_mission` with `loot`,
`out_of_action` (`assistant.rules.game.EVENTS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from assistant.rules.edition import Edition, term
from assistant.rules.horologium import Side
from assistant.rules.instructions import reaction_question
from assistant.rules.loot import SPLITS
from assistant.rules.names import model_name, name_of, option_words
from assistant.rules.reactions import NOBODY
from assistant.rules.state import UNDECIDED, GameState, HeroState
from assistant.rules.statuses import CLASSIC_EFFECTS
from assistant.ui.ai_forms import MAX_DICE
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.rerolls import by_target

# Renaissance: the Status Tokens the rulebook names (the Handbook, which the table has, describes them all)
TOKENS = ("Stunned", "Burned", "Bleeding", "Unloaded", "Reaction 1")
REAGENTS = ("Pecunia", "Elementum", "Alchemia")  # Renaissance "Reagent Cards": the three types
MAX_REAGENTS = 6
SPLIT_WORDS = {"none": "none: discard all", "half": "half", "whole": "whole"}
RULE_FORMS = ("dash", "reaction_attack", "end_mission", "out_of_action")
RULE_FIXES = ("status_gain", "status_discard", "location", "swiftness", "loot")


# -- the menu ---------------------------------------------------------------------------------------


def rule_items(items: list[Any], state: GameState, advice: Any, events: Callable[[], Sequence[dict[str, Any]]]) -> list[Any]:
    """The menu with the buttons of these rules: the Out of action roll the game asks for (first edition), a Dash or a
    Forced move and a Reaction Skill's attack (Renaissance, in a Hero's or an Enemy's activation), after the table's
    other intents; the end of a mission with a Loot asks what the mission's paragraph keeps of it."""
    from assistant.ui.intents import Item

    if state.over is not None:
        if state.over not in UNDECIDED or not state.loot:
            return items
        return [replace(i, event=None, form="end_mission", extra={"result": i.event["result"]})
                if i.event is not None and i.event.get("type") == "end_mission" else i for i in items]  # fmt: skip
    added: list[Any] = []
    for hero in unrolled(state, events):
        added.append(Item("Out of action roll", "x", form="out_of_action", kind="event", detail=name_of(state, hero),
                          extra={"hero": hero}))  # fmt: skip
    where = next((n for n, i in enumerate(items) if i.kind == "command"), len(items))
    main = items[:where]
    if _open_turn(state, advice, main):
        hero_turn = state.side_of(state.turn.token) is Side.HERO  # type: ignore[union-attr]
        if movers(state):
            label, movement, detail = ("Dash", "dash", "no AP") if hero_turn else ("Forced move", "forced", "or a Dash")
            main.append(Item(label, "h", form="dash", detail=detail, extra={"movement": movement}))
        if reactors(state) and _standing(state):
            main.append(Item("Reaction skill", "r", form="reaction_attack", detail="a Hero not active"))
    return added + main + items[where:]


def _open_turn(state: GameState, advice: Any, main: list[Any]) -> bool:
    """A Renaissance activation the table plays on: no event due, no Move declared, no question asked."""
    turn = state.turn
    if state.edition is not Edition.RENAISSANCE or turn is None or turn.move is not None or state.due:
        return False
    if advice is not None and advice.side == "reaction":
        return False
    if state.side_of(turn.token) is Side.HERO:
        return not state.hero(turn.token).ko and any(i.label == "End activation" for i in main)
    # an Enemy's: while the AI asks nothing (its question stays big; an answer, and they are offered again)
    return state.side_of(turn.token) is Side.ENEMY and (advice is None or advice.question is None)


def movers(state: GameState) -> list[HeroState]:
    """The Heroes who can dash or be moved: on the Battlefield, not KO ("suffers no game effect")."""
    return [h for h in state.heroes if not h.ko and not h.removed and not h.location]


def reactors(state: GameState) -> list[HeroState]:
    """Renaissance "Reaction Skills": "usable only when the Hero equipping it is not the Active Model"."""
    active = state.turn.token if state.turn is not None else None
    return [h for h in movers(state) if h.id != active]


def _standing(state: GameState) -> list[tuple[Any, str]]:
    """Every Enemy model on the Battlefield, by name: ((group, number), words)."""
    return [((g.id, n), model_name(state, f"{g.id}/{n}")) for g in state.groups for n in g.standing]


def unrolled(state: GameState, events: Callable[[], Sequence[dict[str, Any]]]) -> list[str]:
    """First edition: the heroes removed from the game ("roll 1d6 on the Out of action table") who have not rolled yet
    (the journal is read only while a hero is removed)."""
    if state.edition is not Edition.CLASSIC or not any(h.removed for h in state.heroes):
        return []
    if _unrolled[0] is not state:  # the journal read once a state, not at every frame
        rolled = {str(e.get("hero")) for e in events() if e.get("type") == "out_of_action"}
        heroes = [h.id for h in state.heroes if h.removed and state.scenario.hero(h.id).role != "ally"]
        _unrolled[:] = [state, [h for h in heroes if h not in rolled]]
    return list(_unrolled[1])


_unrolled: list[Any] = [None, []]  # the state last asked about, and its answer


# -- the forms --------------------------------------------------------------------------------------


def rule_form(name: str, state: GameState, extra: dict[str, Any]) -> Form:
    """The form of one of these menu items."""
    if name == "dash":
        return dash_form(state, str(extra.get("movement", "dash")))
    if name == "reaction_attack":
        return reaction_attack_form(state)
    if name == "end_mission":
        return end_form(state, str(extra.get("result", "victory")))
    return out_of_action_form(state, str(extra.get("hero", "")))


def dash_form(state: GameState, movement: str) -> Form:
    """Renaissance "Dash" (no AP, "even if it is not the Active Model") or "Forced Movement": who moves, and which
    Enemies are adjacent as they move away (each with a Range 1 attack makes its Reaction Attack first)."""
    heroes = movers(state)
    who = Choice("hero", "Who", [(h.id, name_of(state, h.id)) for h in heroes] or [(None, "nobody")])
    if state.turn is not None:
        who.select(state.turn.token)
    kind = Choice("movement", "Move", [("dash", "Dash"), ("forced", "Forced")])
    kind.select(movement)
    models = [o for o in reaction_question(state, heroes[0].id).options if o != NOBODY] if heroes else []
    fields: list[Field] = [who, kind]
    fields += [Choice(m, option_words(state, m), [(False, "no"), (True, "yes")]) for m in models]

    def build(form: Form) -> dict[str, Any]:
        if form.value("hero") is None:
            raise ValueError("Who: no Hero can move")
        adjacent = [m for m in models if form.value(m)]
        return {"type": "declare_move", "movement": form.value("movement"), "hero": form.value("hero"), "adjacent": adjacent}

    note = "No AP spent. Yes for each Enemy adjacent as the Hero moves away: it makes a Reaction Attack first." \
        if models else "No AP spent."  # fmt: skip
    return Form("dash", "Dash or Forced move", fields, build, apply_label="Move", start="hero", note=note)


def reaction_attack_form(state: GameState) -> Form:
    """Renaissance "Reaction Skills": a Hero who is not the Active Model attacks (no AP; the Critical and the Threat
    as any attack)."""
    heroes = reactors(state)
    psychic = lambda form: form.value("kind") == "psychic"  # noqa: E731
    first = state.scenario.hero(heroes[0].id) if heroes else None
    fields: list[Field] = [
        Choice("hero", "Hero", [(h.id, name_of(state, h.id)) for h in heroes] or [(None, "nobody")]),
        Choice("target", "Target", _standing(state) or [(None, "nobody")]),
        Choice("kind", "Attack", [("physical", "Physical"), ("psychic", term(state.edition, "Psychic"))]),
        Number("required", "Needs", 1, 8, 1, show=psychic),
        Number("effect_wounds", "Wounds", 0, 10, 1, show=psychic),
        Number("dice_count", "Dice", 0, MAX_DICE, first.physique if first else 1),
        Dice("dice", "Roll", first.die if first else 8, test=True),
    ]

    def update(form: Form) -> None:
        count, dice, hero_id = form.get("dice_count"), form.get("dice"), form.value("hero")
        assert isinstance(count, Number) and isinstance(dice, Dice)
        if hero_id is not None:
            spec = state.scenario.hero(hero_id)
            dice.roll_sides(spec.die)
            if not count.touched:
                count.value = spec.mind if form.value("kind") == "psychic" else spec.physique
        link_dice_count(form)

    def build(form: Form) -> dict[str, Any]:
        hero, target = form.value("hero"), form.value("target")
        if hero is None or target is None:
            raise ValueError("Reaction skill: no Hero can react, or no Enemy stands")
        event: dict[str, Any] = {"type": "hero_attack", "reaction": True, "hero": hero, "group": target[0],
                                 "model": target[1], "kind": form.value("kind"), "dice": form.value("dice")}  # fmt: skip
        if form.value("kind") == "psychic":
            event["required"] = form.value("required")
            event["effect_wounds"] = form.value("effect_wounds")
        return event

    form = Form("reaction_attack", "Reaction skill", fields, build, update, apply_label="Attack", note="No AP spent.")
    form.forced = by_target(state)  # Dodge, Iron will: the target's
    return form


def _loot_choice(state: GameState, result: str, show: Callable[[Form], bool] | None = None) -> Choice:
    split = Choice("loot", "Loot", [(s, SPLIT_WORDS[s]) for s in SPLITS], show=show)
    split.select("whole" if result == "victory" else "none")
    return split


def end_form(state: GameState, result: str) -> Form:
    """The End of a Mission with a Loot: what the mission's paragraph keeps of it ("Loot: none", "half", "whole")."""
    note = f"The Loot holds {len(state.loot)} cards: as the mission's paragraph says."
    return Form("end_mission", result.capitalize(), [_loot_choice(state, result)],
                lambda form: {"type": "end_mission", "result": result, "loot": form.value("loot")},
                apply_label="End", note=note)  # fmt: skip


def out_of_action_form(state: GameState, hero: str) -> Form:
    """First edition "Out of action": 1d6 on the table, less 1 for each minor wound not healed by a surgeon."""
    fields: list[Field] = [Number("malus", "Malus", 0, 5, 0), Dice("dice", "Roll", 6, [None])]

    def build(form: Form) -> dict[str, Any]:
        dice = form.value("dice")
        if len(dice) != 1:
            raise ValueError(f"Roll: one d6, not {len(dice)}")
        return {"type": "out_of_action", "hero": hero, "die": dice[0], "malus": form.value("malus")}

    note = "1d6: 1 Serious wound; 2-5 Minor wound; 6 Unharmed. Malus: 1 for each minor wound not healed."
    return Form("out_of_action", f"{name_of(state, hero)}: out of action", fields, build, apply_label="Roll",
                start="dice", note=note)  # fmt: skip


# -- Fix ----------------------------------------------------------------------------------------------


def _held(state: GameState) -> dict[tuple[Any, ...], tuple[str, tuple[str, ...]]]:
    """Who holds Status Tokens: ("hero", id) or ("model", group, number) -> (their name, their tokens)."""
    out: dict[tuple[Any, ...], tuple[str, tuple[str, ...]]] = {}
    for h in state.heroes:
        if h.statuses:
            out[("hero", h.id)] = (name_of(state, h.id), h.statuses)
    for g in state.groups:
        for n, model in enumerate(g.models, 1):
            if model.statuses and not model.defeated:
                out[("model", g.id, n)] = (model_name(state, f"{g.id}/{n}"), model.statuses)
    return out


def rule_fixes(state: GameState) -> list[tuple[str, str]]:
    """Fix's entries for these rules, as (key, words)."""
    out: list[tuple[str, str]] = []
    if any(not h.ko and not h.removed for h in state.heroes) or _standing(state):  # "a KO Hero suffers no game effect"
        out.append(("status_gain", "Status token +"))
    if _held(state):
        out.append(("status_discard", "Status token −"))
    if state.edition is Edition.RENAISSANCE:
        out.append(("location", "Location card"))
    out.append(("swiftness", term(state.edition, "Swiftness")))
    out.append(("loot", "Loot: Reagents" if state.edition is Edition.RENAISSANCE else "Loot bag"))
    return out


def rule_fix_fields(state: GameState) -> list[Field]:
    """Fix's fields for these entries, each shown only under its own."""
    def under(*keys: str) -> Callable[[Form], bool]:
        return lambda form: form.value("what") in keys

    held = _held(state)
    tokens = TOKENS if state.edition is Edition.RENAISSANCE else tuple(t.capitalize() for t in CLASSIC_EFFECTS)
    who: list[tuple[Any, str]] = [(("hero", h.id), name_of(state, h.id)) for h in state.heroes if not h.ko and not h.removed]
    who += [(("model", g, n), words) for (g, n), words in _standing(state)]
    places = [(h.id, f"{name_of(state, h.id)} {'leaves' if h.location else 'enters'}") for h in state.heroes if not h.removed]
    reagents = REAGENTS if state.edition is Edition.RENAISSANCE else ("Element",)
    fields: list[Field] = [
        Choice("who", "On", who or [(None, "nobody")], show=under("status_gain")),
        Choice("token", "Token", [(t, t) for t in tokens], show=under("status_gain")),
        Choice("holder", "On", [(who, name) for who, (name, _) in held.items()] or [(None, "nobody")],
               show=under("status_discard")),
        Choice("held", "Token", [(t, t) for t in next(iter(held.values()), ("", ("none",)))[1]], show=under("status_discard")),
        Choice("place", "Hero", places or [(None, "nobody")], show=under("location")),
        Choice("swift_hero", "Hero", [(h.id, name_of(state, h.id)) for h in state.heroes], show=under("swiftness")),
        Number("swiftness", "Now", 0, 20, 0, show=under("swiftness")),
    ]
    fields += [Number(f"reagent:{r}", "Cards" if r == "Element" else r, 0, MAX_REAGENTS, 0, show=under("loot")) for r in reagents]
    if state.loot:  # the End of a Mission: what the mission's paragraph keeps of the Loot
        fields.append(_loot_choice(state, "victory", show=under("victory", "defeat")))
    return fields


def rule_fix_update(state: GameState) -> Callable[[Form], None]:
    """Fix's defaults that follow a choice: the Hero's Swiftness now; the Loot kept by a victory, lost by a defeat."""
    held = _held(state)

    def update(form: Form) -> None:
        holder = form.value("holder")
        tokens = form.get("held")
        assert isinstance(tokens, Choice)
        if holder in held and [t for t, _ in tokens.options] != list(held[holder][1]):  # another holder: their tokens
            tokens.options, tokens.index = [(t, t) for t in held[holder][1]], 0
        if form.value("what") == "swiftness":
            count = form.get("swiftness")
            assert isinstance(count, Number)
            if not count.touched:
                hero = state.hero(form.value("swift_hero"))
                count.value = hero.swiftness if hero.swiftness is not None else state.scenario.hero(hero.id).swiftness
        if state.loot and form.value("what") in ("victory", "defeat"):
            split = form.get("loot")
            assert isinstance(split, Choice)
            if not split.touched:
                split.select("whole" if form.value("what") == "victory" else "none")

    return update


def rule_fix_event(form: Form, state: GameState) -> dict[str, Any] | None:
    """The event of one of these Fix entries (None for the others)."""
    what = form.value("what")
    if what in ("victory", "defeat"):
        return {"type": "end_mission", "result": what, "loot": form.value("loot")} if state.loot else None
    if what == "status_gain":
        who, token = form.value("who"), form.value("token")
        if who is None:
            raise ValueError("On: nobody can gain a Status Token")
        return {"type": "status", "hero": who[1], "token": token} if who[0] == "hero" else \
            {"type": "status", "group": who[1], "model": who[2], "token": token}  # fmt: skip
    if what == "status_discard":
        holder, token = form.value("holder"), form.value("held")
        if holder is None:
            raise ValueError("On: nobody holds a Status Token")
        if holder[0] == "hero":
            return {"type": "status", "hero": holder[1], "token": token, "gain": False}
        return {"type": "status", "group": holder[1], "model": holder[2], "token": token, "gain": False}
    if what == "location":
        hero = form.value("place")
        if hero is None:
            raise ValueError("Hero: nobody")
        return {"type": "location", "hero": hero, "enter": not state.hero(hero).location}
    if what == "swiftness":
        return {"type": "swiftness", "hero": form.value("swift_hero"), "value": form.value("swiftness")}
    if what == "loot":
        counts = [(f.key.partition(":")[2], int(form.value(f.key))) for _, f in form.visible() if f.key.startswith("reagent:")]
        cards = [card for card, count in counts for _ in range(count)]
        if not cards:
            raise ValueError("Loot: how many cards of each type were drawn?")
        return {"type": "loot", "cards": cards}
    return None
