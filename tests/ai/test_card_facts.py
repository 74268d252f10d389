"""What the activation card reads from the plan (issue 62): each model's AP still to spend, and what a trait does."""

from __future__ import annotations

from hypothesis import given, strategies as st

from assistant.rules import game as rules
from assistant.rules.instructions import Plan, plan
from assistant.rules.state import GameState
from assistant.rules.traits import trait_effect
from tests.ui.demo import demo_scenario


def played_on(state: GameState, made: Plan) -> GameState:
    """The next step a table takes where the test wants nothing else: the AI's first answer, the event due, the tie
    in its order, the event queued, else the activation ended."""
    if made.question is not None:
        return rules.apply(state, {"type": "ai_answer", "question": made.question.key, "answer": made.question.options[0]})
    if state.due:
        return rules.apply(state, {"type": "resolve_event", "event": state.due[0]})
    if state.turn is None and state.ties:
        return rules.apply(state, {"type": "order", "ids": list(state.ties[0])})
    if state.turn is None and state.queue:
        return rules.apply(state, {"type": "resolve_event", "event": state.queue[0]})
    return rules.apply(state, {"type": "end_activation"})


def test_a_model_s_ap_left_follows_its_move_and_attacks() -> None:
    """Slingers (5 AP each, Sling 2 AP): 5 before the first attack, 3 before the second; the next model starts at 5."""
    state = rules.new_game(demo_scenario())
    seen: list[tuple[str, int]] = []
    for _ in range(200):
        made = plan(state)
        if made.attack is not None and made.attack.group == "slingers":
            model = f"slingers/{made.attack.model}"
            seen.append((model, dict(made.ap_left)[model]))
            state = rules.apply(state, made.attack.event([1] * made.attack.dice))
        else:
            state = played_on(state, made)
        if len(seen) >= 3:
            break
    assert seen == [("slingers/1", 5), ("slingers/1", 3), ("slingers/2", 5)]


def test_what_the_demo_s_traits_do() -> None:
    assert trait_effect("Critical 1") == "3 or more wounds: 1 more"
    assert trait_effect(" Poisoned ") == "a wounded Hero gains it"
    assert trait_effect("Unblockable Wounds") == "no wound goes on Equipment"
    assert trait_effect("Burst Area") == "every Hero in the Area rolls a Defense Test"


@given(st.text(max_size=30))
def test_any_trait_is_named_and_never_refused(trait: str) -> None:
    """A trait the core does not apply is a reminder only: no effect words, no error."""
    effect = trait_effect(trait)
    assert isinstance(effect, str) and (not effect or trait.strip())


def test_after_no_to_the_control_area_no_move_of_0_is_offered() -> None:
    """Issue 62: "No" to "Is Valerio within 6 squares of Slingers 1?" then asked how far to move with 0 offered: a Sling
    (range 2-6) cannot attack a Hero farther than 6 squares from where it stands. 1 square at least."""
    state = rules.new_game(demo_scenario())
    asked: list[tuple[str, tuple[str, ...]]] = []
    for _ in range(60):
        made = plan(state)
        question = made.question
        if question is not None and question.model == "slingers/1":
            asked.append((question.kind, question.options))
            answer = "no" if question.kind == "in_area" else question.options[0]
            state = rules.apply(state, {"type": "ai_answer", "question": question.key, "answer": answer})
            if question.kind == "reach":
                break
        else:
            state = played_on(state, made)
    kinds = [kind for kind, _ in asked]
    assert "in_area" in kinds and kinds[-1] == "reach", asked
    assert asked[-1][1] == ("1", "2", "3", "4", "5", "more"), asked
