"""A form of a few fields filled with the fewest inputs: turn to change, press for the next stop.

Pure (no pygame): the screens draw a `Form` and feed it inputs. A form is a list of fields;
its *stops* are the places the focus can be: one per choice or number field, one per die of
a dice field, and the final Apply stop. The encoder turns the focused value and presses on to
the next stop; a key 1..8 types a die (or a number) and moves on; a tap moves the focus.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from assistant.rules.dice import Reroll, RerollSource
from assistant.rules.questions import counted

if TYPE_CHECKING:
    from assistant.rules.enemy_skills import ForcedReroll


@dataclass
class Choice:
    """One of a few options; `options` are (value, words) pairs."""

    key: str
    label: str
    options: list[tuple[Any, str]]
    index: int = 0
    touched: bool = False
    show: Callable[[Form], bool] | None = None

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    @property
    def words(self) -> str:
        return self.options[self.index][1]

    def turn(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self.touched = True

    def select(self, value: Any) -> None:
        for index, (option, _) in enumerate(self.options):
            if option == value:
                self.index = index
                return


@dataclass
class Number:
    """A whole number from `low` to `high` (turning stops at the ends)."""

    key: str
    label: str
    low: int
    high: int
    value: int
    touched: bool = False
    show: Callable[[Form], bool] | None = None
    unit: str = ""

    def __post_init__(self) -> None:
        self.value = max(self.low, min(self.high, self.value))

    @property
    def words(self) -> str:
        return f"{self.value}{self.unit}"

    def turn(self, delta: int) -> None:
        self.value = max(self.low, min(self.high, self.value + delta))
        self.touched = True

    def set(self, value: int) -> None:
        self.value = max(self.low, min(self.high, value))
        self.touched = True


@dataclass
class Dice:
    """Die results, one stop a die; `None` is a die not yet read or typed ("?"). `values` are the dice as first
    rolled, `rerolls` the Test's re-rolls in the order made (Renaissance "Dice Re-roll"), `pending` the die being
    re-rolled now and whose Effect it is (its new face still to tap, type or read). Renaissance "Dice Roll": "A Dice
    Roll is not a Test; it cannot be modified by Status Tokens, Skill effects": the Stealth roll's dice, say."""

    key: str
    label: str
    sides: int
    values: list[int | None] = field(default_factory=list)
    source: str = ""  # "camera" once the dice reader has filled the values
    show: Callable[[Form], bool] | None = None
    hand: set[int] = field(default_factory=set)  # the dice set by hand since (a tap, the encoder, a key)
    rerolls: list[Reroll] = field(default_factory=list)
    pending: tuple[int, RerollSource] | None = None
    test: bool = False  # a Test's roll (an attack, a defence): its dice may be re-rolled; a Dice Roll's may not

    @property
    def faces(self) -> list[int | None]:
        """Each die's face now: its last re-roll's, else as rolled."""
        out = list(self.values)
        for step in self.rerolls:
            out[step.die] = step.value
        return out

    def times(self, die: int) -> int:
        """How often die `die` has been re-rolled in this Test."""
        return sum(1 for step in self.rerolls if step.die == die)

    def resize(self, count: int) -> None:
        self.values = (self.values + [None] * count)[:count]
        self.hand = {die for die in self.hand if die < count}
        self.rerolls = [step for step in self.rerolls if step.die < count]
        self.pending = None if self.pending is None or self.pending[0] >= count else self.pending

    def turn(self, die: int, delta: int) -> None:
        current = self.faces[die]
        start = current if current is not None else 0 if delta > 0 else self.sides + 1  # "?" up: 1, down: the top face
        self.set(die, (start - 1 + delta) % self.sides + 1)

    def roll_sides(self, sides: int) -> None:
        """The roll is of another die now (another hero's Mastery): a value no face of it shows is "?" again."""
        self.sides = sides
        for die, value in enumerate(self.values):
            if value is not None and value > sides:
                self.values[die] = None
                self.hand.discard(die)
        self.rerolls = [step for step in self.rerolls if step.value <= sides and self.values[step.die] is not None]

    def set(self, die: int, value: int) -> None:
        """A die set by hand: the face it shows (a re-rolled die's last re-roll, corrected)."""
        last = max((n for n, step in enumerate(self.rerolls) if step.die == die), default=None)
        if last is not None:
            self.rerolls[last] = Reroll(die, value, self.rerolls[last].by)
            return
        self.values[die] = value
        self.hand.add(die)

    def take_back(self, die: int) -> None:
        """Die `die`'s last re-roll was none (a tap too many): it shows its face before it again."""
        last = max(n for n, step in enumerate(self.rerolls) if step.die == die)
        del self.rerolls[last]

    def reroll(self, value: int) -> None:
        """The pending re-roll's new face."""
        assert self.pending is not None
        die, by = self.pending
        self.rerolls.append(Reroll(die, value, by))
        self.pending = None

    @property
    def complete(self) -> bool:
        return all(v is not None for v in self.values)


@dataclass
class Text:
    """Words typed on the on-screen keyboard (`ui/keyboard.py`) or a keyboard's keys: an item, a skill, a name.
    A turn types nothing; a press or a tap on it opens the keyboard. "" until typed (the form is not applied then)."""

    key: str
    label: str
    value: str = ""
    touched: bool = False
    show: Callable[[Form], bool] | None = None
    limit: int = 32
    optional: bool = False  # "" is an answer (a town not named)

    @property
    def words(self) -> str:
        return self.value or ("none: tap to type" if self.optional else "tap to type")

    def turn(self, delta: int) -> None:
        """Nothing: the keyboard types."""

    def set(self, words: str) -> None:
        self.value = " ".join(words.split())[: self.limit]
        self.touched = True


Field = Union[Choice, Number, Dice, Text]


class Incomplete(Exception):
    """The form cannot make its event yet; the message says which field still needs a value."""


@dataclass(frozen=True)
class Stop:
    """A place the focus can be: field `field` (die `die` of a dice field), Apply (field -1) or Back (-2)."""

    field: int
    die: int = 0

    @property
    def is_apply(self) -> bool:
        return self.field == -1

    @property
    def is_back(self) -> bool:
        return self.field == -2


APPLY = Stop(-1)
BACK = Stop(-2)  # the knob's way out of a form at once: a turn on Apply reaches it (a hold steps back one stop)


class Form:
    """A titled list of fields; `build` turns the filled form into the event to apply."""

    def __init__(self, name: str, title: str, fields: Sequence[Field],
                 build: Callable[[Form], dict[str, Any]],
                 update: Callable[[Form], None] | None = None, apply_label: str = "Apply",
                 start: str = "", note: str = "") -> None:  # fmt: skip
        self.name = name
        self.title = title
        self.note = note  # a sentence under the title (what the numbers mean, what the AI chose)
        self.fields = list(fields)
        self._build = build
        self._update = update
        self.apply_label = apply_label
        self.told = ""  # what the camera said of the dice it filled last (`fill`): an edit by hand answers it
        # the Enemy's Skills that force a re-roll of this roll, each with the threshold its dice succeed at (`ui/rerolls.py`)
        self.forced: Callable[[Form], Sequence[tuple[ForcedReroll, int]]] | None = None
        self.refresh()
        stops = self.stops()
        keyed = [stop for stop in stops if stop.field >= 0 and self.fields[stop.field].key == start]
        self.focus = keyed[0] if keyed else stops[0]

    # -- reading -------------------------------------------------------------------------------

    def visible(self) -> list[tuple[int, Field]]:
        """The fields shown now, with their index."""
        return [(i, f) for i, f in enumerate(self.fields) if f.show is None or f.show(self)]

    def stops(self) -> list[Stop]:
        out: list[Stop] = []
        for index, item in self.visible():
            if isinstance(item, Dice):
                out.extend(Stop(index, die) for die in range(len(item.values)))
            else:
                out.append(Stop(index))
        out += [APPLY, BACK]
        return out

    def get(self, key: str) -> Field:
        for item in self.fields:
            if item.key == key:
                return item
        raise KeyError(key)

    def value(self, key: str) -> Any:
        item = self.get(key)
        if isinstance(item, Dice):
            return list(item.values)
        return item.value

    def dice(self) -> Dice | None:
        for _, item in self.visible():
            if isinstance(item, Dice):
                return item
        return None

    def dice_count(self) -> Number | None:
        """The visible field that says how many dice the roll takes (`<dice key>_count`), if any."""
        dice = self.dice()
        key = dice.key + "_count" if dice is not None else None
        return next((f for _, f in self.visible() if isinstance(f, Number) and f.key == key), None)

    def event(self) -> dict[str, Any]:
        """The event this form makes; Incomplete while a visible die has no value."""
        dice = self.dice()
        if dice is not None and not dice.complete:
            missing = sum(1 for v in dice.values if v is None)
            raise Incomplete(f"{dice.label}: {missing} of {counted(len(dice.values), 'die', 'dice')} still to read or type")
        for _, item in self.visible():
            if isinstance(item, Text) and not item.value and not item.optional:
                raise Incomplete(f"{item.label}: still to type (tap it for the keyboard)")
        if dice is not None and dice.pending is not None:
            raise Incomplete(f"{dice.label}: die {dice.pending[0] + 1} is being re-rolled: its new face still to tap")
        event = self._build(self)
        if dice is not None and dice.rerolls and "dice" in event:  # the Test's re-rolls, in the order made
            event["rerolls"] = [{"die": s.die, "value": s.value, "by": s.by.value} for s in dice.rerolls]
        return event

    # -- changing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Let the form recompute linked defaults after a change, and keep the focus on a stop."""
        if self._update is not None:
            self._update(self)
        focus = getattr(self, "focus", None)
        if focus is not None and focus not in self.stops():
            same_field = [s for s in self.stops() if s.field == focus.field]
            self.focus = same_field[-1] if same_field else APPLY

    def turn(self, delta: int) -> None:
        """The encoder (or an arrow key) turned on the focused stop: on Apply and Back, from one to the other."""
        if self.focus.is_apply or self.focus.is_back:
            self.focus = BACK if delta > 0 else APPLY
            return
        item = self.fields[self.focus.field]
        if isinstance(item, Dice):
            item.turn(self.focus.die, delta)
        else:
            item.turn(delta)
        self.refresh()

    def next(self) -> bool:
        """Press: the next stop; True when the focus was already on Apply (apply now). (A press on Back is the screen's.)"""
        stops = self.stops()
        at = stops.index(self.focus)
        if self.focus.is_apply or self.focus.is_back:
            return self.focus.is_apply
        self.focus = stops[at + 1]
        return False

    def back(self) -> bool:
        """Hold: the previous stop; True when the focus was on the first stop (leave the form)."""
        stops = self.stops()
        at = stops.index(self.focus)
        if at == 0:
            return True
        self.focus = stops[at - 1]
        return False

    def type_digit(self, digit: int) -> None:
        """A number key. In a form with dice it only ever sets a die: the focused one, else the first "?" (else the
        first), then the focus goes to the die after it; a key a die has no face for does nothing. In a form
        without dice, the focused number's value, or the focused choice's option by its place."""
        dice = self.dice()
        if dice is not None and dice.pending is not None:  # the re-rolled die's new face; on to the next stop
            if 1 <= digit <= dice.sides:
                self.focus = Stop(self.fields.index(dice), dice.pending[0])
                dice.reroll(digit)
                self.next()
                self.refresh()
            return
        if dice is not None:
            at = self.fields.index(dice)
            die = self.focus.die if self.focus.field == at else next(
                (n for n, value in enumerate(dice.values) if value is None), 0)
            if dice.values and 1 <= digit <= dice.sides:
                dice.set(die, digit)
                self.focus = Stop(at, die)
                self.next()
            return
        if self.focus.is_apply or self.focus.is_back:
            return
        item = self.fields[self.focus.field]
        if isinstance(item, Number):
            item.set(digit)
            self.refresh()
        elif isinstance(item, Choice) and 1 <= digit <= len(item.options):
            item.index = digit - 1
            item.touched = True
            self.refresh()

    def fill_dice(self, reading: Reading) -> str:
        """Dice read elsewhere (the camera): they replace the dice field's values, but for a die set by hand
        that the reading shows unchanged (`Reading.same`: where it lay, read the same), which keeps the hand's
        value. A die not read (None), read as more than this roll's die has (a d8's 7 on a d6 roll), or of
        another kind than the roll's (a d8 left on the tray for a d6 roll) is left "?" for the table to set:
        the form cannot be applied before; so are the dice missing where fewer are seen than the roll takes (its
        Dice field: a die hidden or not found is not dropped from the roll unsaid; a roll of fewer lowers Dice).
        More dice than Dice raise it, said; more than the roll can take fill nothing (which to keep would be a
        guess). Returns what the camera says of it to the table ("" for nothing): why nothing was filled, the
        count it found otherwise, or which dice are "?" where it knows why (the reader's words per die, and the
        kinds)."""
        values = list(reading.values)
        dice = self.dice()
        if dice is None:
            return f"Camera: dice read ({shown(values)}); this form takes none."
        if dice.pending is not None:
            return self._reread(dice, reading)
        if dice.rerolls:
            if values == dice.faces:  # the re-rolled dice at rest, as the form shows them: nothing new
                return ""
            dice.rerolls = []  # another roll: its re-rolls are to make anew
        count = self.dice_count()
        told: list[str] = []
        if count is not None:
            if len(values) > count.high:
                dice.hand = set()  # the next reading is told against this one, which the form does not hold
                return (f"Camera: {len(values)} dice seen, and a roll here takes at most {count.high}: is something "
                        "else on the tray? Tap the dice to set them.")
            if len(values) < count.value:  # a die hidden or not found is asked for, not dropped from the roll
                told.append(f"{counted(len(values), 'die', 'dice')} seen, this roll takes "
                            f"{count.value} (or lower Dice)")
                values += [None] * (count.value - len(values))
            elif len(values) > count.value:  # bonus dice, or a die of another roll left on the tray: said
                told.append(f"{counted(len(values), 'die', 'dice')} seen, this roll took {count.value}: Dice raised (lower it if a "
                            "die is not this roll's)")
            count.set(len(values))
        kind = f"d{dice.sides}"
        before, hand = dice.values, dice.hand if dice.source == "camera" else set()
        dice.values, dice.hand = [], set()
        for n, value in enumerate(values):
            was, seen, why = (_at(reading.same, n), _at(reading.kinds, n), _at(reading.why, n))
            if was in hand:  # the hand's dice are places in `before`
                dice.values.append(before[was])
                dice.hand.add(n)
                continue
            other = value is not None and seen is not None and seen != kind  # a die not read: its kind is a guess
            if value is None or not 1 <= value <= dice.sides or other:
                dice.values.append(None)
                said = f"is a {seen}, and this roll is of {kind}" if other else why
                told.extend([f"die {n + 1} {said}"] if said else [])
            else:
                dice.values.append(value)
        dice.source = reading.source
        self.refresh()
        if not told:
            return ""
        return f"Camera: {'; '.join(told)}." + (" Tap a die to set it." if not dice.complete else "")


    def _reread(self, dice: Dice, reading: Reading) -> str:
        """The die being re-rolled, read again (only it: the other dice stay as they were): the one die of the
        reading, or the one die of several not lying where it lay, read the same (`Reading.same`; without it, the
        one die whose face changed). Where the reading does not tell which it is, the table is asked to tap it."""
        die = dice.pending[0] + 1 if dice.pending is not None else 0
        values = list(reading.values)
        if len(values) == 1:
            new = [0]
        elif reading.same:
            new = [n for n in range(len(values)) if _at(reading.same, n) is None]
        else:
            faces = dice.faces
            new = [n for n, value in enumerate(values) if n >= len(faces) or value != faces[n]]
        if len(new) != 1:
            return (f"Camera: {counted(len(new), 'die', 'dice')} rolled anew, and only die {die} is being re-rolled: "
                    f"roll only it again, or tap its new face.")
        value = values[new[0]]
        if value is None or not 1 <= value <= dice.sides:
            return f"Camera: the re-rolled die {die} could not be read: tap its new face."
        dice.reroll(value)
        self.refresh()
        return ""


@dataclass(frozen=True)
class Reading:
    """Dice read elsewhere (the camera), die by die: the value (None: seen, not read), the reader's words for
    why not (`why`), the kind ("d6", "d8"), and for a die lying where a die of the reading before lay, read
    the same, that die's place there (`same`; None for a die rolled, turned or new). Missing entries: None."""

    values: Sequence[int | None]
    source: str = "camera"
    why: Sequence[str | None] = ()
    kinds: Sequence[str | None] = ()
    same: Sequence[int | None] = ()


def _at(items: Sequence[Any], n: int) -> Any:
    return items[n] if n < len(items) else None


def shown(values: Sequence[int | None]) -> str:
    """Dice values as the screen names them: "6 ? 2" ("?" for a die not read)."""
    return " ".join("?" if v is None else str(v) for v in values)


def link_dice_count(form: Form, dice_key: str = "dice") -> None:
    """Keep the dice field as long as its count field (`<dice_key>_count`) says."""
    dice = form.get(dice_key)
    count = form.get(dice_key + "_count")
    assert isinstance(dice, Dice) and isinstance(count, Number)
    dice.resize(count.value)
