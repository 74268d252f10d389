"""Which serial ports hold a Nova Table board: found by the Raspberry Pi Pico's USB id (pyserial reads it from
sysfs), so that no other device on /dev/ttyACM* (a modem, a 3D printer, an Arduino) is ever written to."""

from __future__ import annotations

from collections.abc import Iterable

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

PICO_VID = 0x2E8A  # Raspberry Pi, the RP2040's maker
MICROPYTHON_PID = 0x0005  # MicroPython's USB serial on an RP2040 board
UDEV_MATCH = f'ATTRS{{idVendor}}=="{PICO_VID:04x}", ATTRS{{idProduct}}=="{MICROPYTHON_PID:04x}"'


def board_ports(ports: Iterable[ListPortInfo] | None = None) -> list[str]:
    """The ports of RP2040 boards running MicroPython (of `ports`, or of all this machine has), sorted."""
    found = list_ports.comports() if ports is None else ports
    return sorted(port.device for port in found if (port.vid, port.pid) == (PICO_VID, MICROPYTHON_PID))
