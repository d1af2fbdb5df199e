"""Pictures whose decoded text, not only their bytes, is checked: character-set conventions."""

from dataclasses import dataclass

from render import Scene, render
from symbols import BY_NAME, Symbol, zint_grid

import numpy as np


@dataclass(frozen=True)
class TextCheck:
    """A symbol of exact bytes and the text the project's conventions expect for it."""
    name: str
    symbology: str
    payload: bytes
    expected: str
    why: str


def _escaped(raw):
    """zint --esc form of raw bytes (every byte outside printable ASCII, and the backslash, as \\xNN)."""
    return ''.join(chr(c) if 32 <= c < 127 and c != 0x5C else '\\x%02X' % c for c in raw)


CHECKS = [
    TextCheck('qr-sjis-mecard-backslash', 'QR',
              'MECARD:N:山田\\:太郎;TEL:0312345678;;'.encode('shift_jis'),
              'MECARD:N:山田\\:太郎;TEL:0312345678;;',
              'QR Code byte mode in Shift_JIS (no ECI) with a MECARD "\\:" escape: byte 0x5C is the '
              'backslash that the escape needs, not the yen sign of JIS X 0201'),
]


def write_pictures(folder):
    """Writes one picture per check into `folder`; returns [(check, path)]."""
    out = []
    for check in CHECKS:
        grid = zint_grid(BY_NAME[check.symbology].zint, _escaped(check.payload), ('--binary', '--esc'))
        symbol = Symbol(grid, np.ones(grid.shape[0]), check.expected, check.name)
        data, ext = render(symbol, BY_NAME[check.symbology], Scene(), seed=1)
        path = f'{folder}/text-{check.name}.{ext}'
        with open(path, 'wb') as f:
            f.write(data)
        out.append((check, path))
    return out


def judge(check, reads):
    """'ok' (the expected text), 'bytes-only' (right bytes, other text), 'wrong' or 'miss'."""
    if any(r['text'] == check.expected for r in reads):
        return 'ok'
    if any(r['bytes'] == check.payload for r in reads):
        return 'bytes-only'
    return 'wrong' if reads else 'miss'
