"""Barcode symbols drawn by the `zint` command, as grey numpy images.

Each symbol is made once per (symbology, data, options) at one pixel per
module and cached in memory; scenes scale it to the module size they need.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

import numpy as np
from PIL import Image

# zint's symbology numbers and the bus message `type` of each spec nick.
ZINT = {
    "ean-13": (13, "EAN-13"), "upc-a": (34, "UPC-A"), "upc-e": (37, "UPC-E"),
    "ean-8": (13, "EAN-8"), "code-128": (20, "Code-128"), "code-39": (8, "Code-39"),
    "code-93": (25, "Code-93"), "itf": (3, "ITF"), "codabar": (18, "Codabar"),
    "databar": (29, "DataBar"), "databar-expanded": (31, "DataBar-Expanded"),
    "qr-code": (58, "QR-Code"), "data-matrix": (71, "Data-Matrix"),
    "pdf417": (55, "PDF417"), "aztec": (92, "Aztec"),
}
# Linear symbologies (quiet zone of 10 modules; height set by the scene).
LINEAR = {"ean-13", "upc-a", "upc-e", "ean-8", "code-128", "code-39", "code-93",
          "itf", "codabar", "databar", "databar-expanded"}


class ZintMissing(RuntimeError):
    """zint is not installed."""


@dataclass(frozen=True)
class Symbol:
    """One symbol: its modules (0 dark, 255 light, no quiet zone) and texts."""
    nick: str           # spec nick of the symbology (e.g. "qr-code")
    data: str           # what zint was given
    text: str           # the `symbol` text the spec's conventions give
    addon: str          # EAN-2/EAN-5 add-on digits, "" when none
    modules: np.ndarray  # uint8, one pixel per module
    alt: tuple[str, ...] = ()  # other forms of the text other readers give

    @property
    def linear(self) -> bool:
        """Whether the symbol is a linear one (bars only)."""
        return self.nick in LINEAR

    def picture(self, module: float, height: int | None = None, quiet: float | None = None) -> tuple[np.ndarray, tuple[int, int, int, int]]:
        """The symbol at `module` pixels per module with its quiet zone.

        Linear symbols are stretched to `height` pixels of bars (default 0.4
        of their width); `quiet` is the quiet zone in modules (default 10 for
        linear symbols, 4 for matrix symbols). Returns the image and the symbol's own box
        (x0, y0, x1, y1) inside it, quiet zone excluded.
        """
        rows, cols = self.modules.shape
        w = max(1, int(round(cols * module)))
        if self.linear:
            h = height or max(8, int(round(w * 0.4)))
        else:
            h = max(1, int(round(rows * module)))
        img = Image.fromarray(self.modules).resize((w, h), Image.NEAREST)
        if quiet is None:
            quiet = 10 if self.linear else 4
        quiet = int(round(quiet * module))
        out = np.full((h + 2 * quiet, w + 2 * quiet), 255, np.uint8)
        out[quiet:quiet + h, quiet:quiet + w] = np.asarray(img)
        return out, (quiet, quiet, quiet + w, quiet + h)


def zint_path() -> str:
    """The zint command, or ZintMissing."""
    path = shutil.which("zint") or ("/usr/bin/zint" if os.path.exists("/usr/bin/zint") else None)
    if not path:
        raise ZintMissing("zint is not installed (apt-get install zint)")
    return path


def _demo_helpers():
    """The EAN/UPC helpers of scripts/make-demo-video.py (one copy of them)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "make-demo-video.py")
    spec = importlib.util.spec_from_file_location("make_demo_video", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_demo = _demo_helpers()


def _gtin13(digits: str) -> str:
    """Digits padded to the 13 of a GTIN-13."""
    return digits.rjust(13, "0")


def _check(digits: str) -> str:
    """The GS1 mod-10 check digit of `digits`."""
    return _demo.ean_check(digits)


def _upce_to_upca(upce7: str) -> str:
    """UPC-E (number system + 6 digits) expanded to the 11 digits of UPC-A."""
    return _demo.upce_to_upca(upce7 + "0")[:-1]


def spec_text(nick: str, data: str) -> tuple[str, str]:
    """The `symbol` text and add-on the element should report for zint `data`."""
    main, _, addon = data.partition("+")
    if nick == "ean-13":
        return main + _check(main), addon
    if nick == "ean-8":
        return main + _check(main), addon
    if nick == "upc-a":
        return _gtin13(main + _check(main)), addon
    if nick == "upc-e":
        upca = _upce_to_upca(main)
        return _gtin13(upca + _check(upca)), addon
    if nick == "databar":
        gtin = main.rjust(13, "0")
        return "01" + gtin + _check(gtin), ""
    if nick == "databar-expanded":
        return data.replace("[", "").replace("]", ""), ""
    if nick == "itf" and len(data) % 2:
        return "0" + data, ""
    return data, ""


def other_forms(nick: str, data: str, text: str) -> tuple[str, ...]:
    """Forms of `text` that follow other conventions (zbar's, older zxing's)."""
    if nick == "upc-a":
        return (text[1:],)
    if nick == "upc-e":
        return (text[1:], data + text[-1])
    if nick == "databar":
        return (text[2:], f"(01){text[2:]}")
    if nick == "databar-expanded":
        return (data.replace("[", "(").replace("]", ")"),)
    if nick == "codabar":
        return (text[1:-1],)
    if nick == "ean-13" and text.startswith("0"):
        return (text[1:],)  # zxing's format=all names these UPC-A
    return ()


@functools.lru_cache(maxsize=None)
def make(nick: str, data: str) -> Symbol:
    """The symbol `nick` holding `data` (zint's input form), cached."""
    number, _ = ZINT[nick]
    args = [zint_path(), "-b", str(number), "-d", data, "--notext", "--scale", "0.5"]
    if nick == "data-matrix":
        args.append("--square")
    with tempfile.TemporaryDirectory(prefix="scenario-zint-") as tmp:
        out = os.path.join(tmp, "s.png")
        done = subprocess.run(args + ["-o", out], capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"zint {' '.join(args[1:])} failed: {done.stderr.strip() or done.stdout.strip()}")
        grey = np.asarray(Image.open(out).convert("L"))
    dark = np.argwhere(grey < 128)
    (y0, x0), (y1, x1) = dark.min(0), dark.max(0) + 1
    modules = np.where(grey[y0:y1, x0:x1] < 128, 0, 255).astype(np.uint8)
    text, addon = spec_text(nick, data)
    return Symbol(nick, data, text, addon, modules, other_forms(nick, data, text))
