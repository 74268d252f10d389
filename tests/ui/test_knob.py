"""The rotary encoder alone (turn, press, hold): a press more than meant does not act on the next turn, question or game."""

from __future__ import annotations

from assistant.rules import game as rules
from assistant.rules.instructions import plan
from assistant.session.scenario_file import parse_scenario
from assistant.ui.app import App
from assistant.ui.form import Choice
from assistant.ui.table import MemoryGame, demo_path
from tests.ui.conftest import make_app, play
from tests.ui.missions import mission
from tests.ui.test_reactions import encoder, labels


def focused(app: App) -> str:
    return labels(app)[app.machine.current.focus]  # type: ignore[attr-defined]


def turn_to(app: App, label: str) -> None:
    """Turn the knob until `label` has the focus."""
    for _ in range(len(labels(app))):
        if focused(app) == label:
            return
        play(app, encoder("turn", 1))
    raise AssertionError(f"{label!r} never had the focus: {labels(app)}")


def test_a_new_activation_starts_on_its_first_intent_not_on_end_activation() -> None:
    """Pressed twice (a habit, a bouncing switch), End activation ended Sofia's turn too: the focus stayed on it."""
    app = make_app()
    start = app.game.state
    turn_to(app, "End activation")
    play(app, encoder("confirm"))
    ended = app.game.state
    assert ended == rules.apply(start, {"type": "end_activation"}) and ended.active == "sofia"
    assert focused(app) == "Move"
    play(app, encoder("confirm"))  # the press more than meant opens Sofia's Move question; it ends nothing
    assert app.game.state == ended


def test_a_new_question_of_the_ai_starts_on_its_first_answer() -> None:
    app = make_app(game=MemoryGame(mission("stealth")))
    for _ in range(10):  # the heroes' turns, to the Guards' activation
        if plan(app.game.state).question is not None:
            break
        turn_to(app, "End activation")
        play(app, encoder("confirm"))
    question = plan(app.game.state).question
    assert question is not None and labels(app)[:2] == ["Yes", "No"]
    turn_to(app, "No")
    play(app, encoder("confirm"))
    following = plan(app.game.state).question
    assert following is not None and following.key != question.key and labels(app)[:2] == ["Yes", "No"]
    assert focused(app) == "Yes"  # "No" stayed focused, and one press answered the next question alike


def test_a_finished_mission_starts_on_undo_so_a_press_more_keeps_the_game() -> None:
    """Play again ends the finished game for good (no undo): the focus starts on Undo, a press there is undone by Redo."""
    app = make_app(game=MemoryGame(mission("hunt")))
    for _ in range(40):
        if app.game.state.over is not None:
            break
        if plan(app.game.state).question is None:  # else a press answers the question: its first answer has the focus
            turn_to(app, "End activation")
        elif "Answer" in labels(app):  # one that takes several: the first marked, then Answer
            play(app, encoder("confirm"))
            turn_to(app, "Answer")
        play(app, encoder("confirm"))
    over = app.game.state
    assert over.over == "defeat: the Prey has no Action Card left"
    assert labels(app) == ["Play again", "Undo", "Redo"] and focused(app) == "Undo"
    play(app, encoder("confirm"))
    assert app.game.state.over is None and app.game.can_redo()
    turn_to(app, "Redo")
    play(app, encoder("confirm"))
    assert app.game.state == over


def test_the_knob_leaves_a_form_at_once_from_apply_by_turning_to_back() -> None:
    """A hold steps back one stop (an attack of 12 dice took 17 holds to leave from Apply); a turn on Apply reaches Back."""
    app = make_app()
    start = app.game.state
    turn_to(app, "Attack")
    play(app, encoder("confirm"))
    form = app.form
    assert form is not None and form.title == "Valerio attacks"
    while not form.focus.is_apply:
        play(app, encoder("turn", 1), encoder("confirm"))  # each value one up, then on
    play(app, encoder("turn", -1))  # turning back on Apply stays on Apply
    assert form.focus.is_apply and app.form is form
    play(app, encoder("turn", 1))
    assert form.focus.is_back and app.form is form
    play(app, encoder("back"))  # a hold from Back: Apply again, the form still open
    assert form.focus.is_apply and app.form is form
    play(app, encoder("turn", 1), encoder("confirm"))
    assert app.form is None and app.machine.current.name == "table" and app.game.state == start


def four_tied() -> MemoryGame:
    """The demo with its four Heroes in sector I, all of Swiftness 5: one tie of four to order."""
    text = demo_path().read_text()
    for old, new in (("sofia = 2", "sofia = 1"), ("vincenzo = 3", "vincenzo = 1"), ("eleonora = 4", "eleonora = 1")):
        text = text.replace(old, new, 1)
    text = text.replace("swiftness = 6", "swiftness = 5", 1).replace("swiftness = 4\ndexterity", "swiftness = 5\ndexterity", 1)
    return MemoryGame(parse_scenario(text, "tied.toml"))


def test_a_tie_of_four_is_ordered_a_place_at_a_time() -> None:
    """Every order a button was 24 buttons of 16 px for four (120 of 4 px for five): now one form, a place per field,
    each offering the tokens the places before it left."""
    app = make_app(game=four_tied())
    start = app.game.state
    (tie,) = start.ties
    assert sorted(tie) == ["eleonora", "sofia", "valerio", "vincenzo"] and start.turn is None
    assert labels(app)[0] == "Order the tie" and focused(app) == "Order the tie"
    play(app, encoder("confirm"))
    form = app.form
    assert form is not None and form.name == "order"
    places = [f for _, f in form.visible() if isinstance(f, Choice)]
    assert [f.words for f in places] == ["Valerio", "Sofia", "Vincenzo", "Eleonora"]  # as they stand
    play(app, encoder("turn", 1))  # 1st: the next one, Sofia; the 2nd place then offers who is left
    assert [f.words for f in places] == ["Sofia", "Valerio", "Vincenzo", "Eleonora"]
    assert [len(f.options) for f in places] == [4, 3, 2, 1]
    play(app, encoder("confirm"), encoder("turn", 2), encoder("confirm"), encoder("confirm"), encoder("confirm"))
    assert form.focus.is_apply
    play(app, encoder("confirm"))
    assert app.form is None
    # 2nd turned twice: Eleonora; the 3rd kept Vincenzo, still left; the 4th is who is left
    assert app.game.state == rules.apply(start, {"type": "order", "ids": ["sofia", "eleonora", "vincenzo", "valerio"]})
    assert app.game.state.active == "sofia"
