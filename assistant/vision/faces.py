"""The face reader: what one die shows, given where it is in a picture.

    reader = FaceReader(kind="auto", profile=None)
    die = reader.read(image, box)           # box = (x, y, w, h) in `image`'s pixels
    die = reader.read(work_image, view)     # or a DieView found in that same (working) image
    dice = reader.read_many(image, boxes)   # several at once: one batch through the network

`read` returns a `Die` (kind, value, confidence in 0..1, box = the box given; `symbol` on a Nova
Aetas d8), a `Die` with `value=None` when the region is a die that cannot be read surely enough
(a wrong reading is worse than none: `note` says why), or `None` when the region is not a die.

It is a small convolutional network (`facenet.py`, trained offline on rendered dice and the
webcam TRAIN photos by `calibration/train_faces.py`) run by onnxruntime (`network.py`): the crop around
the box gives an embedding; a cosine head scores "not a die", d6 1..6 and d8 1..8; a second head
scores the astro symbol, which must agree with a d8's value (Sun 8/6/4, Star 7/5, Moon 1, none on
2 and 3) or the die is reported unreadable. `kind` ("auto", "d6", "d8") is the reader's default;
`read(..., kind=...)` overrides it for one call; "d6" or "d8" leaves out the other kind's values.

Given each die's top face's box too (`read_many(..., tops=...)`, as the detector gives it), a die
read doubtfully from its whole box, and not sent close up as a d8, gets a second look at its top
face alone: the two looks' chances are multiplied within each kind (`second_look`).

A d8 is read closer: where the reader reads d8 (kind "d8", or "auto" when the first network
finds the d8 values likelier), the close-up d8 network (`facenet.D8_MODEL`) reads a crop of the
box's middle, where the numeral and symbol are big enough to tell apart however the die is
turned; it gives the d8 values and the symbol. With kind "auto" the first network still says
whether it is a die; with kind "d8" the first network is not run: the close-up network's own
"not a die" says it.
A profile's d8 (every face shown) refit the close-up network's head too; a profile that taught its
d8 to the first network only (learned without the close-up network) leaves d8 to the refitted first
network. A kind whose faces a profile shows only some of is not refitted (`calibrate.taught`).

Two networks read each crop (`facenet.MODEL`, small and trained from scratch, and
`facenet.SECOND_MODEL`, on an ImageNet-pretrained trunk), each refitted on the profile's examples
of it; their chances are taken together as a crop's turns are (`facenet.agreed`): a value is sure
only where both are sure of it. A profile learned before the second network shipped (no examples
of it) is read by the first alone.
A `profile` (made by `nova-table dice learn` from labelled photos, see `profile.py`) holds the
embeddings of a table's own dice; the value head is refitted on them (`calibrate.py`), so a
table's unusual dice (a skull for 1, marbled bodies, other fonts) are read as labelled. The
confidence of a class is then scaled by how often the refitted head named it right on the profile's
own examples held out in turn (`calibrate.trust`): what the photos did not teach stays unreadable.
`shipped` examples (`DiceReader` gives the shipped white pip d6 photos) are added to the profile's
own, for both networks: a table's profile adds to what they taught, never takes it away (refitted on
16 mixed-oblique-d6 photos alone, the heads read that set's other photos half as well as without them).

How reader.py calls it:

    faces = FaceReader(kind, profile, shipped=shipped)  # once, in DiceReader.__init__
    dice = faces.read_many(work, boxes, tops=tops)     # a frame's detected dice in one batch,
                                                       # `work` = the working image
    # each die's box is the box given (working pixels): map it back to the frame as for any die

A box is best given as the whole die (or its top face, or a tile that is one die); the reader
looks at a square `CONTEXT` (1.2) times the box's longer side around its centre.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Union

import cv2
import numpy as np

from assistant.vision import facenet as F
from assistant.vision.calibrate import every_face, fit_head, taught, trust
from assistant.vision.dice import ASTRO_BY_VALUE, Box, Die
from assistant.vision.errors import ModelError, ProfileError
from assistant.vision.images import check_frame
from assistant.vision.profile import UNUSABLE, Profile

if TYPE_CHECKING:
    from assistant.vision.classical import DieView

KINDS = ("auto", "d6", "d8")
SYMBOL_SURE = 0.6  # a symbol this likely must agree with the value, or the die is doubtful
NOT_A_DIE = 0.5  # "not a die" this likely: the region is no die (read returns None)
WIDER = 1.6  # a 1 or a 3 is read again from its box grown this much (chosen on rendered dice and webcam TRAIN)
ONE_SEEN_WIDER = 0.6  # a 1 stands where its wider look gives 1 at least this chance, and most (chosen on dev sets)
Region = Union[Sequence[float], "DieView"]

_ALLOWED = {
    "auto": np.ones(len(F.CLASSES), bool),
    "d6": np.array([c == "none" or c.startswith("d6") for c in F.CLASSES]),
    "d8": F.D8_CLASSES,
}
_D6 = np.flatnonzero([c.startswith("d6") for c in F.CLASSES])
_D8 = np.flatnonzero([c.startswith("d8") for c in F.CLASSES])
_ONE = F.CLASSES.index("d6:1")
_HEADS: dict[bytes, np.ndarray] = {}  # the refitted value head, per model and profile examples
_TRUSTS: dict[bytes, np.ndarray] = {}  # its classes' trust, per model and profile examples


def box_of(region: Region) -> Box:
    """The (x, y, w, h) box of a box or a DieView, as ints; ValueError if it is no box."""
    raw = getattr(region, "box", region)
    try:
        x, y, w, h = (int(round(float(v))) for v in raw)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(f"a region is a DieView or an (x, y, w, h) box, not {region!r}") from None
    if w <= 0 or h <= 0:
        raise ValueError(f"a box needs a positive width and height, not {(x, y, w, h)}")
    return (x, y, w, h)


def grown(box: Box, factor: float) -> Box:
    """`box` grown `factor` times about its centre."""
    x, y, w, h = box
    return (int(round(x - w * (factor - 1) / 2)), int(round(y - h * (factor - 1) / 2)),
            int(round(w * factor)), int(round(h * factor)))


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be auto, d6 or d8, not {kind!r}")
    return kind


def grey_of(image: np.ndarray) -> np.ndarray:
    """A frame (BGR, checked) or grey picture in grey, as the networks' crops are made from."""
    return image if image.ndim == 2 else cv2.cvtColor(check_frame(image), cv2.COLOR_BGR2GRAY)


@functools.cache
def load_net(model: Path | None = None) -> F.FaceNet:
    """The face network (loaded once per process and path); ModelError if it is missing or broken."""
    return F.FaceNet(model)


def learned_by(profile: Profile, learned: str | None, net: F.FaceNet, what: str) -> None:
    """ProfileError naming the profile's file unless its examples were made by `net` (`learned`: the id it names)."""
    if learned != net.identity:
        raise ProfileError(f"{profile.name}: {UNUSABLE}: {what} {learned}, this reader has {net.identity}: learn it "
                           "again (nova-table dice learn)")


def as_long(profile: Profile, examples: np.ndarray, net: F.FaceNet) -> None:
    """ProfileError naming the profile's file unless its `examples` of `net` are as long as `net`'s embeddings
    (they are not where the file was edited by hand)."""
    if len(examples) and examples.shape[1] != net.dim:
        raise ProfileError(f"{profile.name}: {UNUSABLE}: its examples of face model {net.identity} hold "
                           f"{examples.shape[1]} numbers each, the model's hold {net.dim}: learn it again "
                           "(nova-table dice learn)")


def _prepared(net: F.FaceNet, examples: np.ndarray, labels: Sequence[str], allowed: np.ndarray | None,
              group: int) -> tuple[bytes, np.ndarray, np.ndarray]:
    """A profile's examples of `net` for a refit: their cache key, their classes among the `allowed`
    ones (default all), and the network's own head over those."""
    allowed = np.ones(len(F.CLASSES), bool) if allowed is None else allowed
    names = [c for c, keep in zip(F.CLASSES, allowed) if keep]
    classes = np.array([names.index(label) for label in labels])
    key = hashlib.sha256(net.identity.encode() + np.ascontiguousarray(examples, np.float32).tobytes()
                         + classes.tobytes() + allowed.tobytes() + bytes([group])).digest()
    return key, classes, F.unit(net.heads.values)[allowed]


def refit(net: F.FaceNet, examples: np.ndarray, labels: Sequence[str], allowed: np.ndarray | None = None,
          group: int = 1) -> np.ndarray:
    """The value head over the `allowed` classes (default all) refitted on a profile's examples
    (`calibrate.py`); computed once per model and examples."""
    key, classes, base = _prepared(net, examples, labels, allowed, group)
    if key not in _HEADS:
        _HEADS[key] = fit_head(base, examples, classes, net.heads.scale)
    return _HEADS[key]


def trusted(net: F.FaceNet, examples: np.ndarray, labels: Sequence[str], allowed: np.ndarray | None = None,
            group: int = 1) -> np.ndarray:
    """Each class's trust in the head `refit` gives (`calibrate.trust`; `group`: views of one die in a
    row); computed once per model and examples (it refits the head once a fold: about a second)."""
    key, classes, base = _prepared(net, examples, labels, allowed, group)
    if key not in _TRUSTS:
        _TRUSTS[key] = trust(base, examples, classes, net.heads.scale, group=group)
    return _TRUSTS[key]


def beside(shipped: tuple[np.ndarray, list[str]], usable: bool,
           own: tuple[np.ndarray, list[str]]) -> tuple[np.ndarray, list[str]]:
    """A table's `own` examples with the `shipped` ones added where `usable` (learned with the same
    network): a table's profile adds to what the shipped photos taught, never takes it away."""
    rows, labels = taught(*shipped) if usable else (shipped[0], [])
    if not labels:
        return own
    if not own[1]:
        return rows, labels
    return np.concatenate([rows, own[0]]), labels + own[1]


class FaceReader:
    """Reads one die's face from its region in a picture (see the module's docstring)."""

    def __init__(self, kind: str = "auto", profile: Profile | None = None, model: Path | None = None,
                 threshold: float | None = None, d8_model: Path | None = None, shipped: Profile | None = None) -> None:
        """`profile`: a table's own dice; `shipped`: labelled dice whose examples teach the heads beside
        them (`profile.shipped_faces`, the white pip d6 photos), where learned with these networks."""
        self.kind = check_kind(kind)
        self.net = load_net(model)
        self.threshold = self.net.threshold if threshold is None else threshold
        self.values = F.unit(self.net.heads.values)  # (classes, D): the value head, maybe refitted
        self.trust = np.ones(len(F.CLASSES), np.float32)  # per class: how far a refitted head's calls held up
        profile = profile if profile is not None else Profile()
        examples, labels = profile.embeddings()
        close, close_labels = profile.close_embeddings()
        if labels:
            learned_by(profile, profile.model, self.net, "it was learned with face model")
            as_long(profile, examples, self.net)
        first_taught = bool(labels)
        shipped = shipped if shipped is not None else Profile()
        # a kind shown some faces only is not refitted; the shipped examples are taken as the table's own
        examples, labels = beside(shipped.embeddings(), shipped.model == self.net.identity, taught(examples, labels))
        if labels:
            self.values, self.trust = refit(self.net, examples, labels), trusted(self.net, examples, labels)
        self.problem: str | None = None  # why a network is missing (the second, the close-up d8), if one is
        # the second face network and its value head; with a given first model, that one reads alone
        self.second = self.second_network(profile, first_taught, shipped) if model is None else None
        # d8 are read by the close-up d8 network (refitted on the profile's close-up examples), except
        # by a profile that taught its d8 to the first network only (learned without the close-up one)
        self.d8: F.FaceNet | None = None
        if close_labels or not any(label.startswith("d8") for label in labels):
            try:
                self.d8 = load_net(d8_model or F.d8_model())
            except ModelError as bad:  # the first network reads the d8 on its own, less surely
                self.said(f"{bad}; reading d8 by the face network alone")
        if self.d8 is not None:
            self.d8_values = F.unit(self.d8.heads.values)[F.D8_CLASSES]  # its head: "none", d8 1..8
            self.d8_trust = np.ones(len(self.d8_values), np.float32)
            if close_labels:
                learned_by(profile, profile.d8_model, self.d8, "its d8 were learned with close-up model")
                as_long(profile, close, self.d8)
            if every_face(close_labels, "d8"):  # shown some faces only, it would read every d8 as one of them
                self.d8_values = refit(self.d8, close, close_labels, F.D8_CLASSES, self.d8.turns)
                self.d8_trust = trusted(self.d8, close, close_labels, F.D8_CLASSES, self.d8.turns)

    def second_network(self, profile: Profile, first_taught: bool,
                       shipped: Profile) -> tuple[F.FaceNet, np.ndarray] | None:
        """The second face network and its value head, refitted on the profile's examples of it (each
        class's trust stays the first network's: on emblem dice held out, the lower of the two, or
        their geometric mean, read fewer right); None where the profile taught the first network only
        (learned before the second shipped): the first then reads alone."""
        examples, labels = profile.second_embeddings()
        if first_taught and not labels:
            return None
        try:
            net = load_net(F.second_model())
            if (net.input, net.context) != (self.net.input, self.net.context):
                raise ModelError(f"{F.second_model()}: the second face model must read the first one's crops "
                                 f"({self.net.input} px, {self.net.context} times the box)")
        except ModelError as bad:  # the first network reads on alone, as before the second shipped
            self.said(f"{bad}; reading with the first face network alone")
            return None
        if labels:
            learned_by(profile, profile.second_model, net, "its second network's examples were learned with model")
            as_long(profile, examples, net)
        examples, labels = beside(shipped.second_embeddings(), shipped.second_model == net.identity,
                                  taught(examples, labels))
        return net, refit(net, examples, labels) if labels else F.unit(net.heads.values)

    def said(self, problem: str) -> None:
        self.problem = problem if self.problem is None else f"{self.problem}; {problem}"

    def read(self, image: np.ndarray, region: Region, kind: str | None = None) -> Die | None:
        """The die in `region` of `image` (BGR or grey), unreadable, or None if it is no die."""
        return self.read_many(image, [region], kind)[0]

    def read_many(self, image: np.ndarray, regions: Sequence[Region], kind: str | None = None,
                  tops: Sequence[Box] | None = None) -> list[Die | None]:
        """`read` for several regions of one picture, in one batch (the d8 ones in a second, closer one).
        `tops`, one per region: each die's top face's box, looked at where the whole die is doubtful
        and not read close up as a d8 (`second_look`)."""
        boxes = [box_of(r) for r in regions]
        use = check_kind(kind or self.kind)
        grey = grey_of(image)
        if use == "d8" and self.d8 is not None and boxes:
            # every box is read as a d8: by the close-up network alone, its own "not a die" included
            values = np.zeros((len(boxes), len(F.CLASSES)))
            values[:, F.D8_CLASSES], symbols = self.read_closer(grey, boxes)
            trust = np.ones(len(F.CLASSES), np.float32)
            trust[F.D8_CLASSES] = self.d8_trust
            return [self.decide(v, s, box, self.d8.threshold, trust) for v, s, box in zip(values, symbols, boxes)]
        values, symbols = self.look(grey, boxes, use)
        sure = np.full(len(boxes), self.threshold)
        trusts = np.tile(self.trust, (len(boxes), 1))
        rows = np.zeros(0, int)  # the dice read close up as d8
        if self.d8 is not None and use != "d6" and boxes:
            rows = np.flatnonzero(values[:, _D8].sum(1) >= values[:, _D6].sum(1)) if use == "auto" \
                else np.arange(len(boxes))
        if tops is not None:  # the others: a second look where the first is doubtful
            others = np.setdiff1d(np.arange(len(boxes)), rows)
            values[others] = self.second_look(grey, values[others], [tops[i] for i in others], use)
        if rows.size:
            assert self.d8 is not None
            close, symbols[rows] = self.read_closer(grey, [boxes[i] for i in rows])
            # the first network's "not a die" stands; the close look shares out the rest over d8 1..8
            values[rows, 1:] = 0.0
            values[np.ix_(rows, _D8)] = (1.0 - values[rows, :1]) * close[:, 1:]
            sure[rows] = self.d8.threshold
            trusts[np.ix_(rows, _D8)] = self.d8_trust[1:]
        return self.look_wider(grey, [self.decide(*row) for row in zip(values, symbols, boxes, sure, trusts)], use)

    def second_look(self, grey: np.ndarray, values: np.ndarray, tops: Sequence[Box], kind: str) -> np.ndarray:
        """Where the whole die's crop is not a sure read, its top face's crop is read as well and the
        two looks' chances are multiplied (their geometric mean, made to sum to 1 again): seen at a
        slant, a die's sides show pips too, and the top face alone shows what counts. A sure first
        look stands. (Chosen on dice at a slant rendered by calibration/dice_scenes.py, seeds never
        trained on, and on webcam TRAIN: docs/vision.md.)"""
        doubtful = np.flatnonzero((values[:, 0] >= NOT_A_DIE) | (values[:, 1:].max(1, initial=0) < self.threshold))
        if not doubtful.size:
            return values
        again, _ = self.look(grey, [tops[int(i)] for i in doubtful], kind)
        both = np.sqrt(values[doubtful] * again)
        for block in (_D6, _D8):  # the value within each kind; how likely each kind is stays the first look's
            mass = values[np.ix_(doubtful, block)].sum(1, keepdims=True)
            values[np.ix_(doubtful, block)] = mass * both[:, block] / np.maximum(both[:, block].sum(1, keepdims=True), 1e-12)
        return values

    def look_wider(self, image: np.ndarray, dice: list[Die | None], kind: str) -> list[Die | None]:
        """A d6 read as 1 or 3 is read again from a box WIDER times as wide: a box slipped onto
        part of a bigger face shows one pip of a 2 (a 1) or one row of a 6 (a 3), and seen wider
        the rest of that face. A 1 is withheld unless the wider look leans to 1 too, with at least
        ONE_SEEN_WIDER of its chance (a die at a slant seen wider takes in its sides and its
        neighbours, and is rarely a sure 1 then: photoreal dev pictures lost 7 right 1s to a
        sure 1 asked); a 3 only when the wider look is surely another value (a true 3 among
        other dice, seen wider, is often doubtful: rendered dice at a slant lost 21 of 409 right to
        the stricter rule). A box whose wider look would leave the picture (a tile: one die,
        cropped close) is not looked at."""
        h, w = image.shape[:2]
        asked, wider = [], []
        for i, die in enumerate(dice):
            if die is not None and die.kind == "d6" and die.value in (1, 3):
                x, y, bw, bh = grown(die.box, WIDER)
                if x >= 0 and y >= 0 and x + bw <= w and y + bh <= h:
                    asked.append(i)
                    wider.append((x, y, bw, bh))
        if not asked:
            return dice
        values, symbols = self.look(image, wider, kind)
        for i, v, s, box in zip(asked, values, symbols, wider):
            die = dice[i]
            assert die is not None and die.value is not None
            if die.value == 1:  # unless seen wider it leans to 1
                withhold = v[0] >= NOT_A_DIE or int(np.argmax(v[1:])) + 1 != _ONE or v[_ONE] < ONE_SEEN_WIDER
            else:  # a 3: only where seen wider it is surely another value
                again = self.decide(v, s, box, self.threshold, self.trust)
                withhold = again is not None and again.value is not None and (again.kind, again.value) != ("d6", 3)
            if withhold:
                dice[i] = Die(die.kind, None, die.confidence, die.box,
                              note=f"a {die.value}, but seen wider not a {die.value}", guess=die.value)
        return dice

    def read_closer(self, image: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, np.ndarray]:
        """The close-up d8 network's chances per box: of "not a die" and d8 1..8, and of each symbol;
        each the mean over the crop's quarter turns that the model was validated with (one batch)."""
        assert self.d8 is not None
        embeddings = self.embed_closer(image, boxes)
        values = F.softmax(self.d8.heads.scale * F.unit(embeddings) @ self.d8_values.T)
        return F.together(values, close=True), F.softmax(self.d8.heads.symbol_scores(embeddings)).mean(0)

    def embed_closer(self, image: np.ndarray, regions: Sequence[Region]) -> np.ndarray:
        """(turns, N, D): the close-up d8 network's embeddings of each region's crop, per quarter turn
        (`FaceNet.embed_turned`)."""
        assert self.d8 is not None
        return self.d8.embed_turned(self.crops(image, [box_of(r) for r in regions], self.d8))

    def embed(self, image: np.ndarray, regions: Sequence[Region]) -> np.ndarray:
        """The network's embeddings of the regions (what a profile keeps of a labelled die)."""
        return self.net.embed(self.crops(image, [box_of(r) for r in regions]))

    def crops(self, image: np.ndarray, boxes: Sequence[Box], net: F.FaceNet | None = None) -> np.ndarray:
        """The crops of `boxes` in `image` (BGR or grey) for the face network (or `net`)."""
        net = net or self.net
        grey = grey_of(image)  # once for all boxes
        if not boxes:
            return np.zeros((0, net.input, net.input), np.uint8)
        return np.stack([F.prepare(grey, b, net.context, net.input) for b in boxes])

    def look(self, image: np.ndarray, boxes: Sequence[Box], kind: str) -> tuple[np.ndarray, np.ndarray]:
        """The face networks' `probabilities` for the crops of `boxes` in `image` (one batch each), each
        crop read at the quarter turns its model asks (`FaceNet.embed_turned`): the values' chances as the
        turns, then the two networks, agree (`facenet.agreed`), the symbols' their mean."""
        return self.chances(self.crops(image, boxes), kind)

    def chances(self, crops: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """`look` at crops already made (both networks read the same crops)."""
        values, symbols = self.taken_together(self.net.embed_turned(crops), kind)
        if self.second is None:
            return values, symbols
        more, more_symbols = self.taken_together(self.second[0].embed_turned(crops), kind, self.second)
        return F.agreed(np.stack([values, more])), (symbols + more_symbols) / 2

    def taken_together(self, turns: np.ndarray, kind: str,
                       network: tuple[F.FaceNet, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """`probabilities` of (turns, N, D) embeddings of the same crops by the first network (or
        `network`: a network and its value head), turns taken together (`look`)."""
        count, crops, dim = turns.shape
        values, symbols = self.probabilities(turns.reshape(count * crops, dim), kind, network)  # one batch
        return (F.together(values.reshape(count, crops, values.shape[1]), close=False),
                symbols.reshape(count, crops, symbols.shape[1]).mean(0))

    def probabilities(self, embeddings: np.ndarray, kind: str,
                      network: tuple[F.FaceNet, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per crop: the chance of each class (those `kind` allows) and of each symbol, by the first
        network (or `network`: a network and its value head)."""
        net, head = network or (self.net, self.values)
        scores = net.heads.scale * F.unit(embeddings) @ head.T
        scores[:, ~_ALLOWED[kind]] = -1e9
        return F.softmax(scores), F.softmax(net.heads.symbol_scores(embeddings))

    def read_crops(self, crops: np.ndarray, boxes: Sequence[Box], kind: str | None = None) -> list[Die | None]:
        """Dice from crops already made by `facenet.prepare` (boxes are only reported back)."""
        values, symbols = self.chances(crops, check_kind(kind or self.kind))
        return [self.decide(v, s, box, self.threshold, self.trust) for v, s, box in zip(values, symbols, boxes)]

    def decide(self, values: np.ndarray, symbols: np.ndarray, box: Box, threshold: float,
               trust: np.ndarray) -> Die | None:
        """One die from its class and symbol chances (the confidence scaled by the class's `trust`): a
        value only when at least `threshold` sure, never a silent guess."""
        if values[0] >= NOT_A_DIE:
            return None
        best = int(np.argmax(values[1:])) + 1
        die_kind, value = F.CLASSES[best].split(":")
        confidence = float(values[best]) * float(trust[best])
        symbol = F.SYMBOLS[int(np.argmax(symbols))]
        sym_p = float(symbols.max())
        shown = None if symbol == "none" or sym_p < 0.5 else symbol
        if die_kind == "d8" and shown is not None and sym_p >= SYMBOL_SURE and ASTRO_BY_VALUE[int(value)] != shown:
            return Die(die_kind, None, confidence * (1 - sym_p), box, shown,
                       note=f"{shown} contradicts {value}", guess=int(value))
        if confidence < threshold:
            return Die(die_kind, None, confidence, box, note=f"doubtful {die_kind}:{value}", guess=int(value))
        return Die(die_kind, int(value), confidence, box, shown if die_kind == "d8" else None)
