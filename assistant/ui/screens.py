"""The screens and the small state machine between them (as pibooth does): table <-> form.

`table`: the dial, the heroes and the menu of intents; `form`: the dial and one intent's form
(spend AP, an attack with its dice...). A screen handles an Action and names the screen to go to
(or None to stay); it draws itself and says where taps land.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from assistant.ui import theme
from assistant.ui.dial import draw_dial
from assistant.rules.dice import RerollSource
from assistant.rules.horologium import Side
from assistant.rules.stealth import stealth_active
from assistant.rules.state import UNDECIDED
from assistant.ui.advice import Advice, advice_for
from assistant.ui.answers import answering, draw_answers, rows_of
from assistant.ui.card import card
from assistant.ui.form import APPLY, Form, Incomplete, Reading, Stop, shown
from assistant.ui.inputs import Action, Vertical
from assistant.ui.intents import Item, make_form, menu, met_result, turned
from assistant.ui.mission.carry import mission_end, result_of
from assistant.ui.mission_panel import draw_mission, mission_height
from assistant.ui.panel import (
    Hit,
    compact_fits,
    draw_form,
    draw_header,
    draw_heroes,
    draw_menu,
    draw_over_banner,
    form_height,
    header_height,
    heroes_height,
    least_height,
    read_size,
)
from assistant.ui.picker import choose, draw_picker, picked, picker_height, preview
from assistant.ui.rerolls import asked, effect_for, history, start
from assistant.ui.reactions import move_ready
from assistant.ui.roster import draw_roster, fighting, roster_height
from assistant.ui.rule_forms import rule_items
from assistant.ui.start import mission_words
from assistant.ui.told import LESS, Line, act_height, draw_act, draw_log, told

if TYPE_CHECKING:
    from assistant.ui.app import App

ANSWER_H = 34  # px at 800x480: the rows of a question's buttons (`answers`)
READ_SECONDS = 6.0  # the camera's words on a roll ("Dice raised") stay at least this long, or until the next input


class Screen(Protocol):
    name: str

    def enter(self, app: App) -> None: ...

    def handle(self, app: App, action: Action) -> str | None: ...

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]: ...


def drafted(app: App) -> set[str]:
    """The due events whose Enemy Draft the journal holds (read only while such an event is due)."""
    state = app.game.state
    if not any(e.draft is not None and e.id in state.due for e in state.scenario.events):
        return set()
    return {str(e["event"]) for e in app.game.events() if e.get("type") == "draft" and "event" in e}


DICE_FORMS = ("ai_defence", "reaction_defence")  # the forms a camera reading opens when one is offered


class TableScreen:
    """The Horologium, the heroes, what just happened, and the intents open now."""

    name = "table"

    def __init__(self) -> None:
        self.focus = 0
        self.items: list[Item] = []
        self.advice: Advice | None = None
        self._advised: object = None  # the state `advice` was made for
        self._adjacency: object = None  # and the question who is adjacent, while the screen asks it
        self.drafted: set[str] = set()  # due events whose Enemy Draft is journaled
        self._drafted_for: object = None
        self._moment: object = None  # the activation and the AI's question the focus was set for
        self._attacks: tuple[str, int, int] | None = None  # the activation and its Enemy attacks made, the state before
        self.attacked = False  # the last change was an Enemy attack: what it did is shown (a Critical, a Status)
        self.scroll = 0  # pages of the log back from its newest
        self.picked: list[str] = []  # the answers tapped to a question that takes several, before Answer
        self._picked_for: str | None = None
        self.several: str | None = None  # the question for which Several… was tapped: a tap picks, Answer sends
        self.views = 1  # the log's views at the last draw (a tap on the log shows the next, then the first again)
        self.logged: list[int] = []  # the log's entries shown at the last draw
        self.told: tuple[list[Line], list[Line]] = ([], [])  # the log and the act lines drawn last
        self.regions: dict[str, pygame.Rect] = {}  # where the last draw put the header, rows, act lines, buttons, log

    def enter(self, app: App) -> None:
        self.refresh(app)

    def refresh(self, app: App) -> None:
        """The menu for the current state; the focus goes back to the first intent that is open when the menu
        changes, an activation starts or the AI asks anew (a second press of End activation, or of an answer,
        would end the next turn too, or answer the next question alike). Once the mission is over it starts on
        Undo, where a press more than meant takes nothing away (Play again ends the finished game)."""
        previous = [i.label for i in self.items]
        state = app.game.state
        adjacency = app.adjacency()
        if self._advised is not state:
            turn = state.turn
            attacks = (turn.token, turn.start, len(turn.attacks)) if turn is not None else None
            before = self._attacks
            self.attacked = attacks is not None and before is not None and attacks[:2] == before[:2] and attacks[2] > before[2]
            self._attacks = attacks
        if self._advised is not state:
            self.several = None  # the game changed (an answer, Undo): a tap answers alone again
        if self._advised is not state or self._adjacency != adjacency:
            self.advice = advice_for(state, adjacency)
            self._advised, self._adjacency = state, adjacency
        if self._advised is not self._drafted_for:
            self.drafted, self._drafted_for = drafted(app), self._advised
        self.items = menu(state, app.game.can_undo() or app.asking, app.game.can_redo(), self.advice, self.drafted)
        self.items = rule_items(self.items, state, self.advice, app.game.events)  # issue 49's (ui/rule_forms.py)
        if state.scenario.campaign and result_of(state) is not None and hasattr(app.game, "game_id"):
            self.items.insert(0, Item("Campaign sheet", "c", command="campaign", detail="the end onto it"))
        question = self.advice.question if self.advice is not None else None
        if question is None or question.key != self._picked_for:
            self.picked, self._picked_for = [], question.key if question is not None else None
        if question is not None and question.several and self.several == question.key:  # after Several…
            self.items = toggled(self.items, question, self.picked)
        left = state.turn.ap_left if state.turn is not None and state.side_of(state.turn.token) is Side.HERO else 0
        self.items = [replace(i, detail=f"{left} AP unspent") if i.label == "End activation" and left else i for i in self.items]
        moment = (state.clock, state.active, state.turn and state.turn.start, question and question.key, state.over)
        stale = self.focus >= len(self.items) or not self.items[self.focus].enabled
        if [i.label for i in self.items] != previous or stale or moment != self._moment:
            open_ = [n for n, item in enumerate(self.items) if item.enabled]
            safe = [n for n in open_ if self.items[n].command != "restart"] if state.over is not None else open_
            if state.over in UNDECIDED and met_result(state) is None:  # the paragraph alone says: neither pre-selected
                safe = [n for n in safe if "end_mission" not in (self.items[n].form, (self.items[n].event or {}).get("type"))]
            self.focus = (safe or open_ or [0])[0]
        if moment != self._moment:
            self.scroll = 0
        self._moment = moment

    def handle(self, app: App, action: Action) -> str | None:
        self.refresh(app)  # the menu of the state now (inputs of one loop pass come before its frame)
        if action.kind == "turn":
            self.focus = turned(self.items, self.focus, int(action.value))
        elif action.kind == "confirm":
            return self.choose(app, self.focus)
        elif action.kind == "digit" and 1 <= action.value <= len(self.items):
            return self.choose(app, action.value - 1)
        elif action.kind == "key":
            for index, item in enumerate(self.items):
                if item.key == action.value:
                    return self.choose(app, index)
        elif action.kind == "dice":
            return self.dice(app, action.value)
        elif action.kind == "back":
            app.asking = False  # who is adjacent is not asked any more: the Hero's menu
        elif action.kind == "tap":
            for hit in app.hits:
                if not hit.rect.collidepoint(action.value):
                    continue
                if hit.target[0] == "item":
                    return self.choose(app, hit.target[1])
                if hit.target[0] == "choice":  # an instruction the AI chose: override it
                    return self.open_form(app, "ai_choice", {"choice": hit.target[1]})
                if hit.target[0] == "log":  # one entry further back; after the oldest, the newest
                    self.scroll = (self.scroll + 1) % self.views
                    return None
                if hit.target[0] == "mission":  # the title: the mission's goals and how it ends, in the log
                    scenario = app.game.state.scenario
                    app.say(f"{scenario.title}. {mission_words(scenario)}")
                    return None
                if hit.target[0] == "model":  # an enemy model of the roster: Fix on it
                    return fix_model(app, self.open_form(app, "fix"), hit.target[1])
        return None

    def dice(self, app: App, reading: Reading) -> str | None:
        """Dice read while a defence roll is awaited: its form opens with them, still correctable. Otherwise
        they fill the next form with dice opened before anything else happens in the game (`open_form`)."""
        app.keep_dice(reading)
        rolls = [item for item in self.items if item.enabled and item.form in DICE_FORMS]
        if rolls:
            return self.open_form(app, rolls[0].form, rolls[0].extra)
        if app.game.state.over is not None:
            then = "the mission is over"
        elif app.asking or self.advice is not None and self.advice.question is not None:
            then = "answer the question, then roll"  # an answer changes the game: these dice are not kept
        else:
            then = "the next roll opened takes them"
        app.say(f"Dice read ({reading.source}): {shown(reading.values)}; {then}")
        return None

    def choose(self, app: App, index: int) -> str | None:
        item = self.items[index]
        if not item.enabled:
            return None
        self.focus = index
        if item.command == "campaign":  # the end onto the campaign sheet: `command.run` opens it with its form
            events = app.game.events()
            app.to_campaign = mission_end(app.game.state, events, app.game.game_id)  # type: ignore[attr-defined]
            app.running = False
            return None
        if item.command == "ask_adjacent":  # Renaissance: who is adjacent, before the move form
            return None if app.ask_adjacent() else self.open_form(app, "move")
        if item.command == "pick":  # one of several answers: on or off, Answer sends them
            option = str(item.extra["option"])
            self.picked = [o for o in self.picked if o != option] if option in self.picked else [*self.picked, option]
            self.refresh(app)
            return None
        if item.command == "react":
            return self.open_form(app, "move") if app.react(list(item.extra["adjacent"])) else None
        question = self.advice.question if self.advice is not None else None
        if item.form == "ai_several" and question is not None:  # a tap answered alone; for a tie, tap each, then Answer
            self.several = question.key
            self.refresh(app)
            return None
        if item.command:
            app.command(item.command)
        elif item.event is not None:
            app.act(item.event)
        elif item.form:
            return self.open_form(app, item.form, item.extra)
        return None

    def open_form(self, app: App, name: str, extra: dict[str, Any] | None = None) -> str:
        self.refresh(app)
        app.form = make_form(name, app.game.state, self.advice, extra)
        app.error, app.said = "", []  # the table's words are not the form's
        fresh = app.fresh_dice()
        if fresh is not None and app.form.dice() is not None:
            fill(app, app.form, fresh)  # the dice on the tray, read since the game last changed
        return "form"

    def _notes(self, app: App, advice: Advice) -> tuple[str, ...]:
        """What just happened, under the plan: in a Hero's activation, after an event's Draft, after a Reaction Attack,
        after an Enemy's attack."""
        state = app.game.state
        drafted = advice.side == "event" and bool(self.drafted & set(state.due))  # what the Draft placed
        move = state.turn.move if state.turn is not None else None
        rolled = advice.side == "reaction" and move is not None and move.owed != move.adjacent  # what the last attack did
        if advice.side == "hero" or drafted or rolled:
            return state.notes[-1:]
        if advice.side == "enemy" and self.attacked:  # the rules' words: its Critical, the Status Token it gave
            return state.notes
        return ()

    @staticmethod
    def _before(app: App, advice: Advice | None) -> tuple[str, ...]:
        """What the change that began the AI's turn did, before its sentences: a Hero's forced Wait and why, an Injury
        drawn (they were nowhere once an Enemy activated)."""
        turn = app.game.state.turn
        fresh = turn is None or not (turn.answers or turn.attacks)
        return app.game.state.notes if advice is not None and advice.side in ("enemy", "event", "stop") and fresh else ()

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        """The dial; the panel: the header, the heroes' rows, what the table acts on now (big), the buttons; the
        log of what came before under the dial (landscape) or above the act lines (portrait).

        The act lines are whole first: the buttons give up height for them to their least (34 px, 50 where a
        label needs two lines), then the heroes' rows go to two columns, and while the AI talks are left out
        (the dial shows their tokens). On a Hero's own turn the rows stay, unless a question needs their room."""
        self.refresh(app)
        lay, fonts, state = app.layout, app.fonts, app.game.state
        fonts.least = read_size(lay, fonts)  # nothing shrunk under what the table reads
        draw_dial(surface, lay.dial, state, fonts)
        if state.over is not None:
            draw_over_banner(surface, lay.dial, lay, state, fonts)
        area = lay.panel
        advice = self.advice if self.advice is not None and (self.advice.steps or self.advice.waiting) else None
        notes = self._notes(app, advice) if advice is not None else state.notes
        if advice is not None and advice.side == "enemy":  # the activation card
            log, act = card(state, advice, app.error, app.said, notes, self._before(app, advice), app.camera is not None,
                            advice.question is not None and self.several == advice.question.key)  # fmt: skip
        else:
            log, act = told(advice, app.error, app.said, notes, state, self._before(app, advice), app.camera is not None)
        main = [item for item in self.items if item.kind != "command"]
        commands = [item for item in self.items if item.kind == "command"]
        columns = 2
        rows = (len(main) + columns - 1) // columns
        strip = pygame.Rect(area.left, area.bottom - lay.px(46), area.width, lay.px(46))
        wanted = rows * lay.px(54) + (rows - 1) * lay.gap if rows else 0
        floor = least_height(main, (area.width - (columns - 1) * lay.gap) // columns, lay, fonts)
        asking = advice is not None and advice.waiting and any(answering(item) for item in main)
        if asking:  # the answers keep their places from one question to the next: a grid of a fixed height
            rows, floor = rows_of(main), lay.px(ANSWER_H)
            wanted = rows * floor + (rows - 1) * lay.gap
        portrait_log = lay.log.height + lay.log.width == 0 and bool(log)
        log_least = read_size(lay, fonts) + lay.px(6) if portrait_log else 0  # a line of the log at least
        active = [state.turn.token] if state.turn is not None and state.side_of(state.turn.token) is Side.ENEMY else []
        roster_h = roster_height(state, lay, fonts, active, True, area.width) if portrait_log or not lay.log.height else 0
        log_least += roster_h  # the active group's wounds, defences and attacks are always shown: above the log
        room = strip.top - lay.gap - area.top - mission_height(state, lay) - log_least - lay.gap  # header, act, buttons
        # the act lines whole, at the largest; a label's two lines ("Venetian Alchemist") before their last steps down
        one_row = (False, True) if compact_fits(area, lay, state, fonts) else (False,)
        ways = [(c, n, f) for f in dict.fromkeys((floor,) if asking else (floor, lay.px(34))) for n in LESS for c in one_row
                if f == lay.px(34) or n != LESS[-1] or asking]  # fmt: skip
        def fitting(act: list[Line], less: tuple[int, ...] = LESS, reserve: int = 0) -> list[tuple[bool, int, int]]:
            return [(c, n, f) for c, n, f in ways if n in less and header_height(lay, c) + act_height(act, area.width, lay, fonts, n)
                    + (rows * f + (rows - 1) * lay.gap if rows else 0) + reserve <= room]  # fmt: skip

        enemy = advice is not None and advice.side == "enemy"
        own_turn = advice is None or advice.side in ("hero", "reaction")
        # on a Hero's own turn the act lines give way for the heroes' rows (they were drawn over them: issue 62)
        fit = fitting(act, LESS, heroes_height(state, lay, 2)) if own_turn else []
        fit = fit or fitting(act, LESS[:1] if enemy else LESS)
        for less in LESS if not fit and enemy else ():
            # the card's lines give way to the log (the least kept first) before the question, the roll or "done" gets
            # smaller; at the next size down only where the lines it keeps alone do not fit
            shed, gone = list(act), []
            cut = len(log) - len(notes) - len([words for words in app.said if words])  # before what just happened
            fit = fitting(shed, (less,))
            while not fit and any(line.keep is not None for line in shed):
                drop = min((n for n, line in enumerate(shed) if line.keep is not None), key=lambda n: (shed[n].keep, n))
                if shed[drop].color != theme.ACTIVE:  # a hint how to answer goes; the card's words are the log's
                    gone.append(shed[drop])
                shed = shed[:drop] + shed[drop + 1:]
                fit = fitting(shed, (less,))
            if fit:  # in the card's order: the least kept (the goal, the move) the log's newest, shown first
                log, act = log[:cut] + [line for line in act if line in gone] + log[cut:], shed
                break
        fit = fit or fitting(act)
        if not fit and advice is not None and not advice.waiting and act:  # the instruction is the log's, to scroll
            log, act = [*log, replace(act[-1], big=False)], act[:-1]
        compact, less, floor = fit[0] if fit else ways[-1]
        act_h = act_height(act, area.width, lay, fonts, less)
        y = draw_header(surface, area, lay, state, fonts, compact)
        self.regions = {"header": pygame.Rect(area.left, area.top, area.width, y - area.top)}
        above = strip.top - lay.gap - mission_height(state, lay) - y  # the room above the strip, below the header
        least = rows * floor + (rows - 1) * lay.gap if rows else 0
        room = above - least - act_h - lay.gap - log_least
        layouts = (1, 2) if own_turn or len(state.heroes) == 1 else (2,)
        heroes = next((c for c in layouts if heroes_height(state, lay, c) <= room), 0)  # never under the act lines
        if heroes:
            top, y = y, draw_heroes(surface, pygame.Rect(area.left, y, area.width, 0), lay, state, fonts, columns=heroes)
            self.regions["heroes"] = pygame.Rect(area.left, top, area.width, y - top)
        top, y = y, draw_mission(surface, pygame.Rect(area.left, y, area.width, 0), lay, state, fonts)
        self.regions["mission"] = pygame.Rect(area.left, top, area.width, y - top)
        top = y + act_h + lay.gap + log_least
        grid_top = min(max(top, strip.top - lay.gap - wanted), strip.top - lay.gap - least)
        act_area = pygame.Rect(area.left, grid_top - lay.gap // 2 - act_h, area.width, act_h)
        log_area = lay.log if not portrait_log else pygame.Rect(area.left, y, area.width, act_area.top - lay.gap // 2 - y)
        # with its defences and attacks, in as many lines as the width needs (the log, scrollable, gives them room)
        tall = roster_height(state, lay, fonts, active, True, log_area.width)
        detail = bool(active) and tall <= log_area.height
        roster = draw_roster(surface, log_area, lay, state, fonts, active, detail)
        below = tall if detail else roster_height(state, lay, fonts, active)
        log_area = pygame.Rect(log_area.left, log_area.top + below, log_area.width, log_area.height - below)
        grid = pygame.Rect(area.left, grid_top, area.width, strip.top - lay.gap - grid_top)
        self.regions.update(act=act_area, buttons=grid, log=log_area)
        if asking:
            hits = draw_answers(surface, grid, lay, main, self.focus, fonts, floor)
        else:
            hits = draw_menu(surface, grid, lay, main, self.focus, fonts, columns=columns)
        hits += draw_menu(surface, strip, lay, commands, self.focus, fonts, columns=3, first=len(main))
        drawn, self.logged, self.views = draw_log(surface, log_area, log, self.scroll, lay, fonts)
        self.told = (log, act)
        hits += [Hit(pygame.Rect(area.left, area.top, area.width, header_height(lay, True)), ("mission",))]  # the title
        return hits + roster + [Hit(d.rect, d.target) for d in draw_act(surface, act_area, act, lay, fonts, less) + drawn]


def toggled(items: list[Item], question: Any, picked: list[str]) -> list[Item]:
    """A question that takes several answers ("tap all who are equally close"): a tap on an answer picks it (or
    unpicks it), and Answer, in Several…'s place, sends those picked, in the question's order."""
    out: list[Item] = []
    for item in items:
        event = item.event or {}
        if event.get("type") == "ai_answer" and event.get("question") == question.key:
            option = str(event["answer"])
            out.append(replace(item, event=None, command="pick", kind="event" if option in picked else "order",
                               extra={"option": option}))  # fmt: skip
        elif item.form == "ai_several":
            chosen = [o for o in question.options if o in picked]
            out.append(Item("Answer", "s", {"type": "ai_answer", "question": question.key, "answer": chosen},
                            enabled=bool(chosen), kind="order"))  # fmt: skip
        else:
            out.append(item)
    return out


def fix_model(app: App, screen: str, model: tuple[str, int]) -> str:
    """The Fix form opened on an enemy model: Wound enemy, that model (a turn of Change heals it)."""
    assert app.form is not None
    app.form.get("what").select("enemy_wound")  # type: ignore[union-attr]
    app.form.get("target").select(model)  # type: ignore[union-attr]
    app.form.refresh()
    return screen


def fill(app: App, form: Form, reading: Reading) -> None:
    """The camera's dice into the open form, and what it says of them on the screen; kept, for a form opened
    again (after Back) before the game changes. The same dice read again, with nothing to say, leave the words before
    on the screen for `READ_SECONDS`, or until the table's next input: "Dice raised" was wiped by the next frame."""
    app.keep_dice(reading)
    before = rolled(form)
    words = form.fill_dice(reading)
    if not words and rolled(form) == before and form.told and app.error == form.told and app.clock() < app.read_until:
        return
    app.error = form.told = words
    app.read_until = app.clock() + READ_SECONDS if words else 0.0


def settled(app: App, form: Form) -> bool:
    """A defence roll whose every die is set by hand, with nothing left to decide: no Enemy's Skill asking for a
    re-roll, no die being re-rolled, no re-roll token held by the Hero (Undo takes it back where one was meant)."""
    dice, state = form.dice(), app.game.state
    if form.name not in DICE_FORMS or dice is None or not dice.complete or dice.pending is not None or asked(state, form):
        return False
    try:
        hero = str(form.event().get("hero", ""))
    except (Incomplete, ValueError):
        return False
    held = next((h.statuses for h in state.heroes if h.id == hero), ())
    return not any("re-roll" in token.lower() for token in held)


def rolled(form: Form) -> tuple[Any, ...]:
    """What the camera's words are about: the roll's die, its dice and how many."""
    dice, count = form.dice(), form.dice_count()
    return (None, None, None) if dice is None else (dice.sides, list(dice.values), count and count.value)


class FormScreen:
    """One intent's form beside the dial; Apply makes the event, Back (or hold) returns to the table."""

    name = "form"
    picking: Stop | None = None  # the die whose faces are shown (`picker`), after a tap on it
    warned = ""  # an Enemy's Skill's re-roll said on Apply: Apply again goes on without it

    def enter(self, app: App) -> None:
        self.picking = None
        self.warned = ""
        app.tray(True)
        dice = app.form.dice() if app.form is not None and app.form.name in DICE_FORMS else None
        if app.form is not None and dice is not None and None in dice.values:  # a defence roll: the faces of its
            # first die not set yet at once (one tap a die; the tap that opened them cost one more: issue 62)
            field = app.form.fields.index(dice)
            self.picking = app.form.focus = Stop(field, dice.values.index(None))

    def handle(self, app: App, action: Action) -> str | None:
        form = app.form
        if form is None:
            return "table"
        before = rolled(form)
        went = self.edit(app, form, action)
        after = rolled(form)
        if after != before and action.kind != "dice" and app.form is form:
            self.edited(app, form, before, after)
        return went

    def edit(self, app: App, form: Form, action: Action) -> str | None:
        kind = action.kind
        if kind == "turn":  # Up raises the value (it moved the focus back on the table's menu)
            form.turn(-int(action.value) if isinstance(action.value, Vertical) else int(action.value))
        elif kind == "confirm":
            if form.focus.is_back:  # turned past Apply to Back: the knob's way out at once
                return self.leave(app)
            if form.next():
                return self.apply(app, form)
        elif kind == "back":
            if form.back():
                return self.leave(app)
        elif kind == "digit":
            dice = form.dice()
            rerolling = dice is not None and dice.pending is not None
            form.type_digit(int(action.value))
            self.picking = form.focus if self.picking is not None and picked(form, form.focus) and not rerolling else None
        elif kind == "dice":
            dice = form.dice()
            rerolling = dice is not None and dice.pending is not None
            fill(app, form, action.value)
            if rerolling and dice is not None and dice.pending is None:  # the camera read the re-rolled die
                self.picking = None
        elif kind == "key" and action.value == "r":  # R: re-roll the focused die; again: the other side's Effect
            self.key_reroll(app, form)
        elif kind == "tap":
            return self.tap(app, form, action.value)
        return None

    @staticmethod
    def edited(app: App, form: Form, before: tuple[Any, ...], after: tuple[Any, ...]) -> None:
        """The table changed the roll by hand: the camera's words on it are answered, or no longer true, and go
        (a refusal or a notice stays until the next form); a roll made of another die (another hero's
        Mastery) takes the camera's dice anew, as that die's roll reads them (a d6 on a d8 roll is "?")."""
        if form.told and app.error == form.told:
            app.error = form.told = ""
        fresh = app.fresh_dice()
        if after[0] != before[0] and fresh is not None:
            fill(app, form, fresh)

    def key_reroll(self, app: App, form: Form) -> None:
        dice = picked(form, form.focus)
        if dice is None:
            return
        die = form.focus.die
        if dice.pending is not None and dice.pending[0] == die:
            by = RerollSource.HERO if dice.pending[1] is RerollSource.ENEMY else RerollSource.ENEMY
            dice.pending = None
        else:
            by = effect_for(app.game.state, form, die)
        app.error = start(app.game.state, form, dice, die, by)
        self.picking = form.focus if not app.error else None

    def tap(self, app: App, form: Form, pos: tuple[int, int]) -> str | None:
        if self.picking is not None:  # a face: that die set, the next one's faces shown; Re-roll: whose Effect, then
            # the new face; elsewhere: the picker closes (a re-roll not given its face is not made)
            chosen = next((hit.target for hit in app.hits if hit.target[0] in ("face", "reroll") and hit.rect.collidepoint(pos)), None)
            stop, self.picking = self.picking, None
            dice = picked(form, stop)
            if dice is None:
                return None
            if chosen is None or chosen[0] == "face" and dice.pending is not None and dice.pending[0] != stop.die:
                dice.pending = None
            elif chosen[0] == "reroll" and chosen[1] is None:  # Take back: the die's last re-roll was none
                dice.take_back(stop.die)
                form.refresh()
            elif chosen[0] == "reroll":
                app.error = start(app.game.state, form, dice, stop.die, chosen[1])
                self.picking = stop if not app.error else None
            elif dice.pending is not None:
                dice.reroll(int(chosen[1]))
                form.refresh()
            else:
                self.picking = choose(form, stop, int(chosen[1]))
                if self.picking is None and settled(app, form):  # the last die set and nothing left to decide
                    return self.apply(app, form)
            return None
        for hit in app.hits:
            if not hit.rect.collidepoint(pos) or hit.target[0] == "face":
                continue
            if hit.target[0] == "back":
                return self.leave(app)
            _, stop, side = hit.target
            assert isinstance(stop, Stop)
            if stop == APPLY:
                form.focus = APPLY
                return self.apply(app, form)
            form.focus = stop
            if picked(form, stop) is not None:  # a die: its faces
                self.picking = stop
            elif side:
                form.turn(side)
            return None
        return None

    def apply(self, app: App, form: Form) -> str | None:
        try:
            event = form.event()
        except (Incomplete, ValueError) as problem:
            app.error = str(problem)
            return None
        owed = " ".join(ask.words for ask in asked(app.game.state, form) if ask.reroll.sure)
        if owed and owed != self.warned:  # "Dice must be re-rolled before applying the result of the Test": asked once
            self.warned, app.error = owed, f"{owed} Apply again to go on without it."
            return None
        if "screen" in event:  # not an event of the game: a screen of the app's own (Fix: Calibrate dice)
            self.leave(app)
            return str(event["screen"])
        if app.act(event):
            return self.follow(app, form)
        return None

    def follow(self, app: App, form: Form) -> str | None:
        """What comes after a form's event: the Move once no Reaction Attack is owed, the Stealth roll after a Move."""
        state = app.game.state
        if form.name in ("react_several", "reaction_defence") and move_ready(state):
            return self.chain(app, make_form("move", state))
        hero_moved = form.name == "move" and state.turn is not None and state.side_of(state.turn.token) is Side.HERO
        if hero_moved and stealth_active(state):
            return self.chain(app, make_form("stealth", state))
        return self.leave(app)

    def chain(self, app: App, form: Form) -> str | None:
        """Open the next form at once (the table stays in the form screen)."""
        app.form = form
        self.picking = None
        self.warned = ""
        app.error = ""
        return None

    def leave(self, app: App) -> str:
        app.form = None
        self.picking = None
        app.tray(False)
        return "table"

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        fonts.least = read_size(lay, fonts)
        draw_dial(surface, lay.dial, app.game.state, fonts)
        assert app.form is not None
        pygame.draw.rect(surface, theme.PANEL, lay.panel, border_radius=lay.px(10))
        inner = lay.panel.inflate(-2 * lay.gap, -2 * lay.gap)
        state = app.game.state
        owed = " ".join(ask.words for ask in asked(state, app.form))  # an Enemy's Skill's re-roll, before the result
        dice = app.form.dice()
        made = history(dice) if dice is not None else ""  # the re-rolls made, and what Apply would do, or a tap not taken
        said = " ".join([*app.said[-1:], made, owed or preview(state, app.form)]).strip()
        # the enemies' wounds (whom to attack, whom to fix), shown, not tapped: under the dial, or in portrait above
        # the form, as many groups as the room its rows leave at their tallest
        roster = lay.log
        if not lay.log.height:
            room = inner.height - form_height(app.form, inner.width, lay, fonts, app.error or said) - lay.gap
            roster = pygame.Rect(inner.left, inner.top, inner.width, max(0, room))
        groups = [g for g in fighting(state) if roster_height(state, lay, fonts, [g]) * (fighting(state).index(g) + 1) <= roster.height]
        draw_roster(surface, roster, lay, state, fonts, groups)
        if roster.colliderect(inner) and groups:
            top = roster_height(state, lay, fonts, groups) + lay.gap
            inner = pygame.Rect(inner.left, inner.top + top, inner.width, inner.height - top)
        hits = draw_form(surface, inner, lay, app.form, fonts, app.error, said)
        dice = picked(app.form, self.picking)
        if dice is None or self.picking is None:
            self.picking = None
            return hits
        die = next(hit.rect for hit in hits if hit.target[0] == "stop" and hit.target[1] == self.picking)
        bottom = min(hit.rect.top for hit in hits if hit.target[0] == "back") - lay.gap
        below = pygame.Rect(inner.left, die.bottom + lay.gap, inner.width, bottom - die.bottom - lay.gap)
        area = below if below.height >= picker_height(lay, dice, self.picking.die) else pygame.Rect(
            inner.left, inner.top, inner.width, die.top - lay.gap - inner.top)
        return draw_picker(surface, area, lay, fonts, dice, self.picking.die) + hits  # its faces first


class Machine:
    """The screens by name and the current one; `go` runs the exit and entry of a transition."""

    def __init__(self, screens: list[Screen], first: str) -> None:
        self.screens = {s.name: s for s in screens}
        self.current: Screen = self.screens[first]

    def start(self, app: App) -> None:
        self.current.enter(app)

    def go(self, app: App, name: str | None) -> None:
        if name is None or name == self.current.name:
            return
        self.current = self.screens[name]
        self.current.enter(app)
