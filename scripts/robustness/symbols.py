"""Symbologies of the robustness suite: seeded payloads, zint module grids and expected texts."""

import functools
import importlib.util
import os
import random
import subprocess
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Symbology:
    """One symbology: how zint draws it and what a reader must return."""
    name: str            # row label in the tables
    zint: int            # zint barcode type (zint -b)
    kind: str            # 'linear', 'stacked' or 'matrix'
    quiet: float         # quiet zone of the clean pictures, in modules (ISO minimum or more)
    payloads: tuple      # functions rng -> (zint data, zint options, expected text)
    row_height: int = 1  # module rows per stacked row (stacked codes)
    zbar: bool = True    # whether zbar reads this symbology at all


@dataclass
class Symbol:
    """A drawn symbol: dark modules, the height of each module row, and the text it carries."""
    grid: np.ndarray               # bool (rows, columns), True = dark
    row_heights: np.ndarray        # float, one per grid row, in modules
    expected: str
    data: str
    options: tuple = field(default=())

    @property
    def width(self):
        return self.grid.shape[1]

    @property
    def height(self):
        return float(self.row_heights.sum())


def _digits(rng, n):
    return ''.join(rng.choice('0123456789') for _ in range(n))


def _demo_helpers():
    """The EAN/UPC helpers of scripts/make-demo-video.py (one copy of them)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'make-demo-video.py')
    spec = importlib.util.spec_from_file_location('make_demo_video', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_demo = _demo_helpers()


def gs1_check(digits):
    """GS1 mod-10 check digit of a digit string (GS1 General Specifications 7.9.1)."""
    return _demo.ean_check(digits)


def upce_to_upca(d8):
    """Expands an 8-digit UPC-E (number system, 6 digits, check) to the 12-digit UPC-A."""
    return _demo.upce_to_upca(d8)


def _ean13(rng):
    d = str(rng.randint(1, 9)) + _digits(rng, 11)
    return d, (), d + gs1_check(d)


def _ean8(rng):
    d = _digits(rng, 7)
    return d, (), d + gs1_check(d)


def _upca(rng):
    d = str(rng.randint(0, 1)) + _digits(rng, 10)
    return d, (), '0' + d + gs1_check(d)


def _upce(rng):
    six = _digits(rng, 5) + str(rng.randint(5, 9))
    body = '0' + six
    upca11 = upce_to_upca(body + '0')[:11]
    return body, (), '0' + upca11 + gs1_check(upca11)


_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
_TEXT = _ALNUM + 'abcdefghijklmnopqrstuvwxyz -.'


def _text(rng, n, alphabet=_TEXT):
    """n characters of `alphabet`, the first and last alphanumeric (no edge spaces)."""
    inner = ''.join(rng.choice(alphabet) for _ in range(max(0, n - 2)))
    return rng.choice(_ALNUM) + inner + (rng.choice(_ALNUM) if n > 1 else '')


def _code128(rng):
    s = _text(rng, rng.randint(6, 12))
    return s, (), s


def _code39(rng):
    s = _text(rng, rng.randint(5, 9), _ALNUM)
    return s, (), s


def _itf(rng):
    s = _digits(rng, 2 * rng.randint(4, 7))
    return s, (), s


def _codabar(rng):
    start, stop = rng.choice('ABCD'), rng.choice('ABCD')
    s = start + _digits(rng, rng.randint(6, 12)) + stop
    return s, (), s


def _databar(rng):
    d = _digits(rng, 13)
    return d, (), '01' + d + gs1_check(d)


def _databar_exp(rng):
    gtin = '0' + _digits(rng, 12)
    gtin += gs1_check(gtin)
    weight = _digits(rng, 6)
    data, expected = f'[01]{gtin}[3103]{weight}', f'01{gtin}3103{weight}'
    if rng.random() < 0.5:
        lot = _text(rng, rng.randint(3, 8), _ALNUM)
        data, expected = data + f'[10]{lot}', expected + f'10{lot}'
    return data, (), expected


def _sized_text(lengths, alphabet=_TEXT, options_for=None):
    """Payloads of the given lengths in turn (payload i of a symbology has length lengths[i % n])."""
    def make(rng, index):
        s = _text(rng, lengths[index % len(lengths)], alphabet)
        opts = options_for(rng, index) if options_for else ()
        return s, opts, s
    return make


def _dm_options(rng, index):
    # every third payload rectangular (ISO/IEC 16022 Table 7: 8x18 .. 16x48)
    return ('--square',) if index % 3 != 2 else ('--vers=%d' % rng.choice((27, 28, 29, 30)),)


def _pdf_options(rng, index):
    return ('--cols=%d' % rng.choice((2, 3, 4, 6)),)


def _fixed(fn):
    return lambda rng, index: fn(rng)


SYMBOLOGIES = [
    Symbology('EAN-13', 13, 'linear', 10, (_fixed(_ean13),)),
    Symbology('EAN-8', 13, 'linear', 10, (_fixed(_ean8),)),
    Symbology('UPC-A', 34, 'linear', 10, (_fixed(_upca),)),
    Symbology('UPC-E', 37, 'linear', 10, (_fixed(_upce),)),
    Symbology('Code 128', 20, 'linear', 10, (_fixed(_code128),)),
    Symbology('Code 39', 8, 'linear', 10, (_fixed(_code39),)),
    Symbology('Code 93', 25, 'linear', 10, (_fixed(_code39),)),
    Symbology('ITF', 3, 'linear', 10, (_fixed(_itf),)),
    Symbology('Codabar', 18, 'linear', 10, (_fixed(_codabar),)),
    Symbology('DataBar', 29, 'linear', 2, (_fixed(_databar),)),
    Symbology('DataBar Expanded', 31, 'linear', 2, (_fixed(_databar_exp),)),
    Symbology('QR', 58, 'matrix', 4, (_sized_text((10, 24, 45, 80, 130)),)),
    Symbology('Micro QR', 97, 'matrix', 2, (_sized_text((4, 8, 12, 18), _ALNUM),), zbar=False),
    Symbology('Data Matrix', 71, 'matrix', 2, (_sized_text((6, 16, 30, 60, 110), options_for=_dm_options),),
              zbar=False),
    Symbology('PDF417', 55, 'stacked', 2, (_sized_text((12, 30, 60), options_for=_pdf_options),),
              row_height=3, zbar=False),
    Symbology('MicroPDF417', 84, 'stacked', 2, (_sized_text((6, 14, 24)),), row_height=2, zbar=False),
    Symbology('Aztec', 92, 'matrix', 2, (_sized_text((6, 20, 50, 120)),), zbar=False),
]

BY_NAME = {s.name: s for s in SYMBOLOGIES}


def zint_grid(zint_type, data, options=()):
    """The module rows zint encodes for `data` (zint --dump), as a bool array.

    zint pads each dumped row to whole hex digits; the symbol ends at the last dark
    module of any row (every symbology here ends in a bar or a dark edge).
    """
    out = subprocess.run(['zint', '-b', str(zint_type), '-d', data, '--dump', *options],
                         capture_output=True, check=False)
    if out.returncode != 0 or not out.stdout.strip():
        raise RuntimeError(f'zint -b {zint_type} -d {data!r}: {out.stderr.decode(errors="replace").strip()}')
    rows = []
    for line in out.stdout.decode().splitlines():
        bits = ''.join(f'{int(h, 16):0{4 * len(h)}b}' for h in line.split())
        rows.append([b == '1' for b in bits])
    grid = np.array(rows, dtype=bool)
    dark_columns = np.nonzero(grid.any(axis=0))[0]
    return grid[:, :dark_columns[-1] + 1]


@functools.lru_cache(maxsize=512)
def make_symbol(sym, index, seed, options=()):
    """Payload `index` of `sym` (seeded), encoded by zint, with its row heights."""
    rng = random.Random(f'{seed}/{sym.name}/{index}')
    data, opts, expected = sym.payloads[0](rng, index)
    grid = zint_grid(sym.zint, data, tuple(opts) + tuple(options))
    rows = grid.shape[0]
    if sym.kind == 'linear':
        heights = np.array([float(np.clip(round(0.3 * grid.shape[1]), 24, 60))] * rows)
    elif sym.kind == 'stacked':
        heights = np.full(rows, float(sym.row_height))
    else:
        heights = np.ones(rows)
    return Symbol(grid, heights, expected, data, tuple(opts) + tuple(options))
