"""Nova Table board: the protocol and the LED ring logic, pure, for MicroPython (RP2040) and CPython alike.

No hardware here: `main.py` feeds this module the serial lines, the knob pins and the clock, and
copies its LED frame and tray level to the pins. The tests run this same file under CPython
against the Pi side (`assistant.hardware.board`), and `nova-table board simulate` runs it on a pty.

Protocol 3: one JSON object per line, UTF-8, "\n" at the end, at most MAX_LINE bytes.
Pi -> board:
    {"t": "hello"}                                         the board answers with its own hello
    {"t": "ring", "minute": 1-12, "hour": 0+, "active": sector or null,
     "tokens": [[sector, kind], ...], "over": null or "victory"/"defeat..."/"time"}
        kind: "h" hero, "k" KO hero, "e" enemy group, "v" event or mystery, with "!" appended
        for the active token ("h!")
    {"t": "perilium", "values": [threat of hero 1, hero 2, ...]}
    {"t": "tray", "level": 0-100}                          the dice tray light, in percent
    {"t": "repl"}            the loop stops for MicroPython's prompt (mpremote), BOARD_REPL_S seconds at most
Board -> Pi:
    {"t": "hello", "board": "nova-board", "protocol": PROTOCOL, "leds": 24, "knobs": N}
    {"t": "knob", "hero": index from 0, "delta": +n or -n}     n at most 100 (the Pi skips a line beyond)
    {"t": "press", "hero": index from 0}                       that hero's knob pressed (its push switch)
    {"t": "error", "error": "what was wrong with the line it got"}
    {"t": "beat"}                 every BEAT_MS while its loop runs: a board silent for 3 s is taken as lost
    {"t": "repl", "seconds": N}   its loop has stopped: mpremote may copy files, then reset it

The ring: 24 LEDs, LED 0 just clockwise of twelve o'clock, so sector N (I..XII) is lit by
LEDs 2N-1 and 2N (mod 24), as on the dial:

            LED 23 | LED 0           <- sector XII
      LED 21,22      LED 1,2         <- sectors XI and I
    ...                      ...

The first LED of a sector shows its enemies (or an event), the second its heroes (dim red for a
KO hero). The minute hand's sector blinks white over them; the hour hand is a blue LED; the
active token's LED breathes. For two seconds after a Perilium knob turns or is pressed, the ring
shows that hero's Threat Level as a bar instead.

Versions: 2 added the heartbeat and the prompt, 3 the press; the Pi uses a board of its own version only.
"""

import json

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython (the tests, the simulator): MicroPython's tick arithmetic, whose clock wraps at 2**30 ms
    _PERIOD = 1 << 30

    def ticks_add(ticks, delta):
        return (ticks + delta) % _PERIOD

    def ticks_diff(end, start):
        return (end - start + _PERIOD // 2) % _PERIOD - _PERIOD // 2

PROTOCOL = 3
LEDS = 24
MAX_LINE = 1024
KNOB_SHOW_MS = 2000
BLINK_MS = 500
BEAT_MS = 1000
DEBOUNCE_MS = 30  # a knob's switch must read the same this long (two passes of the loop) to count
REPL_S = 600

OFF = (0, 0, 0)
WHITE = (255, 255, 255)
HOUR = (40, 120, 255)
HERO = (40, 110, 255)
KO = (90, 0, 0)
ENEMY = (255, 30, 20)
EVENT = (255, 170, 0)
THREAT = (255, 90, 0)
VICTORY = (0, 200, 60)
DEFEAT = (200, 0, 0)

# gpiozero's RotaryEncoder state graph (A is the high bit, B the low bit): 0, 2, 3, 1 is one
# step clockwise, 0, 1, 3, 2 one step counter-clockwise; wiggles between states are allowed.
TRANSITIONS = {
    "idle": ("idle", "ccw1", "cw1", "idle"),
    "ccw1": ("idle", "ccw1", "ccw3", "ccw2"),
    "ccw2": ("idle", "ccw1", "ccw3", "ccw2"),
    "ccw3": ("-1", "idle", "ccw3", "ccw2"),
    "cw1": ("idle", "cw3", "cw1", "cw2"),
    "cw2": ("idle", "cw3", "cw1", "cw2"),
    "cw3": ("+1", "cw3", "idle", "cw2"),
}


class ProtocolError(Exception):
    """A line that is not a message of this protocol; the text says what is wrong."""


class Quadrature:
    """One knob's two pins in, steps out (+1 clockwise, -1 counter-clockwise, 0 while between)."""

    def __init__(self):
        self.state = "idle"

    def feed(self, a, b):
        edge = (1 if a else 0) << 1 | (1 if b else 0)
        nxt = TRANSITIONS[self.state][edge]
        if nxt == "+1" or nxt == "-1":
            self.state = "idle"
            return 1 if nxt == "+1" else -1
        self.state = nxt
        return 0


class Switch:
    """One push switch, read each pass: a press once it has read closed for DEBOUNCE_MS after reading open
    as long (contact bounce and a lone noisy reading are not presses; a switch held down presses once)."""

    def __init__(self):
        self.down = False
        self.since = None  # when it first read otherwise than `down` (ticks_ms), while it does

    def feed(self, closed, now_ms):
        """The switch read `closed` at `now_ms`: True when that makes a press."""
        if bool(closed) == self.down:
            self.since = None
            return False
        if self.since is None:
            self.since = now_ms
        if ticks_diff(now_ms, self.since) < DEBOUNCE_MS:
            return False
        self.down, self.since = not self.down, None
        return self.down


def sector_leds(sector):
    """The two LEDs of sector 1..12: (2N-1, 2N) mod 24."""
    return ((2 * sector - 1) % LEDS, (2 * sector) % LEDS)


def encode(message):
    """One message as a line (no newline), compact JSON."""
    return json.dumps(message, separators=(",", ":"))


def decode(line):
    """A line (bytes or str) as a message dict; ProtocolError saying what is wrong."""
    if isinstance(line, bytes):
        if len(line) > MAX_LINE:
            raise ProtocolError("line too long (%d bytes, at most %d)" % (len(line), MAX_LINE))
        try:
            line = line.decode("utf-8")
        except UnicodeError:
            raise ProtocolError("not UTF-8 text")
    line = line.strip()
    if not line:
        raise ProtocolError("empty line")
    if len(line) > MAX_LINE:
        raise ProtocolError("line too long (%d characters, at most %d)" % (len(line), MAX_LINE))
    try:
        message = json.loads(line)
    except ValueError:
        raise ProtocolError("not JSON: " + _clip(line))
    if not isinstance(message, dict):
        raise ProtocolError("not a JSON object: " + _clip(line))
    kind = message.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("no message type 't': " + _clip(line))
    return message


def _clip(text):
    return text if len(text) <= 60 else text[:57] + "..."


def _integer(message, key, low, high):
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value > high:
        raise ProtocolError("'%s' must be a whole number from %d to %d, not %s" % (key, low, high, _clip(str(value))))
    return value


def _scale(color, factor):
    return (int(color[0] * factor), int(color[1] * factor), int(color[2] * factor))


class Board:
    """The board's whole behaviour: messages in, replies and knob messages out, the LED frame."""

    def __init__(self, knobs=4, brightness=0.25):
        self.knobs = knobs
        self.brightness = brightness
        self.minute = None
        self.hour = 0
        self.active = None
        self.tokens = []
        self.over = None
        self.perilium = [0] * knobs
        self.tray = 0
        self.shown_knob = None
        self.shown_until = 0
        self.received = 0
        self.errors = 0
        self.beaten = None  # when the last heartbeat was sent (ticks_ms)
        self.repl = False  # asked to stop the loop for MicroPython's prompt

    # -- from the Pi ------------------------------------------------------------------------

    def receive(self, line, now_ms=0):
        """Handle one line from the Pi; the lines to send back (an error reply for a bad line)."""
        try:
            message = decode(line)
            replies = self._handle(message)
        except ProtocolError as error:
            self.errors += 1
            return [encode({"t": "error", "error": str(error)})]
        self.received += 1
        return replies

    def _handle(self, message):
        kind = message["t"]
        if kind == "hello":
            return [self.hello()]
        if kind == "ring":
            self._ring(message)
            return []
        if kind == "perilium":
            values = message.get("values")
            if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise ProtocolError("'values' must be a list of whole numbers")
            self.perilium = (list(values) + [0] * self.knobs)[: max(self.knobs, len(values))]
            return []
        if kind == "tray":
            self.tray = _integer(message, "level", 0, 100)
            return []
        if kind == "repl":
            self.repl = True
            return [encode({"t": "repl", "seconds": REPL_S})]
        raise ProtocolError("unknown message type '%s'" % _clip(str(kind)))

    def _ring(self, message):
        minute = _integer(message, "minute", 1, 12)
        hour = _integer(message, "hour", 0, 1000)
        active = message.get("active")
        if active is not None:
            active = _integer(message, "active", 1, 12)
        tokens = message.get("tokens")
        if not isinstance(tokens, list):
            raise ProtocolError("'tokens' must be a list of [sector, kind]")
        parsed = []
        for token in tokens:
            if (not isinstance(token, list) or len(token) != 2 or isinstance(token[0], bool)
                    or not isinstance(token[0], int) or not 1 <= token[0] <= 12
                    or token[1] not in ("h", "k", "e", "v", "h!", "k!", "e!", "v!")):
                raise ProtocolError("a token must be [sector 1-12, kind h/k/e/v], not " + _clip(str(token)))
            parsed.append((token[0], token[1]))
        over = message.get("over")
        if over is not None and not isinstance(over, str):
            raise ProtocolError("'over' must be null or a string")
        self.minute, self.hour, self.active, self.tokens, self.over = minute, hour, active, parsed, over

    def hello(self):
        return encode({"t": "hello", "board": "nova-board", "protocol": PROTOCOL, "leds": LEDS, "knobs": self.knobs})

    # -- from the knobs ---------------------------------------------------------------------

    def knob_turned(self, hero, delta, now_ms=0):
        """A Perilium knob moved: the message to send; the ring shows that hero's value a moment."""
        self.shown_knob = hero
        self.shown_until = ticks_add(now_ms, KNOB_SHOW_MS)
        if 0 <= hero < len(self.perilium):
            self.perilium[hero] = max(0, self.perilium[hero] + delta)
        return encode({"t": "knob", "hero": hero, "delta": delta})

    def knob_pressed(self, hero, now_ms=0):
        """A Perilium knob's switch pressed: the message to send; the ring shows that hero's value a moment."""
        self.shown_knob = hero
        self.shown_until = ticks_add(now_ms, KNOB_SHOW_MS)
        return encode({"t": "press", "hero": hero})

    def beat(self, now_ms):
        """The heartbeat line when one is due (every BEAT_MS), else None."""
        if self.beaten is not None and ticks_diff(now_ms, self.beaten) < BEAT_MS:
            return None
        self.beaten = now_ms
        return encode({"t": "beat"})

    # -- to the LEDs ------------------------------------------------------------------------

    def frame(self, now_ms=0):
        """The 24 LED colours at time `now_ms`, brightness applied."""
        leds = [OFF] * LEDS
        if self.shown_knob is not None and ticks_diff(self.shown_until, now_ms) > 0:  # not `<`: ticks_ms wraps
            value = self.perilium[self.shown_knob] if self.shown_knob < len(self.perilium) else 0
            for index in range(min(LEDS, value)):
                leds[index] = THREAT
            leds[LEDS - 1] = HERO
        elif self.over is not None:
            color = VICTORY if self.over == "victory" else DEFEAT
            leds = [color] * LEDS
        elif self.minute is not None:
            self._draw_ring(leds, now_ms)
        return [_scale(c, self.brightness) for c in leds]

    def _draw_ring(self, leds, now_ms):
        breathe = 0.35 + 0.65 * (1 - abs((now_ms % 2000) - 1000) / 1000)
        for sector, kind in sorted(self.tokens, key=lambda token: token[1][0] != "k"):  # KO first: heroes outshine
            first, second = sector_leds(sector)
            active = kind.endswith("!")
            side = kind[0]
            if side == "e" or side == "v":
                color = ENEMY if side == "e" else EVENT
                leds[first] = _scale(color, breathe) if active else color
            else:
                color = HERO if side == "h" else KO
                leds[second] = _scale(color, breathe) if active else color
        hour_led = sector_leds(self.hour % 12 or 12)[1]
        if leds[hour_led] == OFF:
            leds[hour_led] = HOUR
        if (now_ms // BLINK_MS) % 2 == 0:
            for index in sector_leds(self.minute):
                leds[index] = WHITE

    @property
    def tray_duty(self):
        """The tray light's PWM duty for `machine.PWM.duty_u16` (0..65535)."""
        return self.tray * 65535 // 100
