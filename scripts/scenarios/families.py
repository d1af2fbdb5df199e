"""The scene families, each in a CI size and a full size.

Every scene is seeded: the same arguments draw the same frames. Texts differ
between the codes of a scene (except where a family is about identical codes),
so a reading names the code it belongs to.
"""
from __future__ import annotations

import random
import string
from dataclasses import dataclass

from . import symbols
from .scenes import Place, Scene

# Every symbology of the element, with the add-ons read with their main code.
SOLO = ["ean-13", "upc-a", "upc-e", "ean-8", "ean-13+ean-2", "ean-13+ean-5", "code-128",
        "code-39", "code-93", "itf", "codabar", "databar", "databar-expanded", "qr-code",
        "data-matrix", "pdf417", "aztec"]
MATRIX_PAIRS = [("qr-code", "data-matrix"), ("data-matrix", "aztec"), ("data-matrix", "pdf417"),
                ("qr-code", "aztec"), ("qr-code", "pdf417")]
EDGE = ["code-128", "code-39", "code-93", "itf", "codabar", "ean-13"]
EFFORTS = ["fast", "balanced", "thorough"]


@dataclass(frozen=True)
class Size:
    """How many frames and layouts a family gets."""
    hold: int        # frames a standing layout is held
    positions: int   # layouts per single-symbology scene
    layouts: int     # layouts per multi-code scene
    standing: int    # frames of the standing families (region; the shelf gets half)
    motion: int      # frames of pans, occlusion, approach
    live_seconds: float
    full: bool


CI = Size(hold=3, positions=8, layouts=5, standing=60, motion=48, live_seconds=3, full=False)
FULL = Size(hold=4, positions=8, layouts=5, standing=300, motion=90, live_seconds=5, full=True)


def data_for(nick: str, rng: random.Random, tag: str = "") -> str:
    """Seeded zint input for `nick` (add-ons as "main+addon")."""
    digits = lambda n: "".join(rng.choice(string.digits) for _ in range(n))
    upper = lambda n: "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(n))
    main, _, addon = nick.partition("+")
    if main == "ean-13":
        d = digits(12)
        return d + ("+" + digits(2) if addon == "ean-2" else "+" + digits(5) if addon == "ean-5" else "")
    return {
        "upc-a": lambda: digits(11),
        "upc-e": lambda: "0" + digits(5) + rng.choice("56789"),
        "ean-8": lambda: digits(7),
        "code-128": lambda: tag + upper(8),
        "code-39": lambda: upper(7),
        "code-93": lambda: upper(7),
        "itf": lambda: digits(10),
        "codabar": lambda: "A" + digits(8) + "B",
        "databar": lambda: digits(13),
        "databar-expanded": lambda: "[01]" + _gtin14(digits(13)) + "[3103]" + digits(6),
        "qr-code": lambda: f"QR {tag}{upper(10)}",
        "data-matrix": lambda: f"DM{tag}{upper(8)}",
        "pdf417": lambda: f"PDF {tag}{upper(8)}",
        "aztec": lambda: f"AZ {tag}{upper(9)}",
    }[main]()


def _gtin14(d13: str) -> str:
    """13 digits and their check digit."""
    return d13 + symbols._check(d13)


def symbol(nick: str, rng: random.Random, tag: str = "") -> symbols.Symbol:
    """A seeded symbol of `nick` ("ean-13+ean-5": with its add-on)."""
    return symbols.make(nick.partition("+")[0], data_for(nick, rng, tag))


def module_for(sym: symbols.Symbol, width: float) -> float:
    """Pixels per module giving about `width` pixels of symbol: whole pixels
    (at least 2) for matrix symbols, quarter pixels (at least 1.5) for linear ones."""
    if sym.linear:
        return max(1.5, round(4 * width / sym.modules.shape[1]) / 4)
    return float(max(2, round(width / sym.modules.shape[1])))


def _extent(sym: symbols.Symbol, module: float) -> tuple[int, int]:
    """Width and height of the symbol's picture, quiet zone included."""
    pic, _ = sym.picture(module)
    return pic.shape[1], pic.shape[0]


def _place_apart(rng: random.Random, w: int, h: int, sizes: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """Centres for pictures of `sizes` inside the frame, not overlapping."""
    for _ in range(500):
        out, boxes = [], []
        for pw, ph in sizes:
            cx, cy = rng.uniform(pw / 2 + 4, w - pw / 2 - 4), rng.uniform(ph / 2 + 4, h - ph / 2 - 4)
            box = (cx - pw / 2, cy - ph / 2, cx + pw / 2, cy + ph / 2)
            if any(box[0] < b[2] and box[2] > b[0] and box[1] < b[3] and box[3] > b[1] for b in boxes):
                break
            out.append((cx, cy))
            boxes.append(box)
        else:
            return out
    raise RuntimeError("codes do not fit apart in the frame")


def _segments(layouts: list[list[Place]], hold: int):
    """A layout function showing each layout for `hold` frames in turn."""
    return lambda f: layouts[min(f // hold, len(layouts) - 1)]


def solo_scenes(size: Size) -> list[Scene]:
    """Each symbology at seeded positions and sizes in 1280x720, alone and with all on.

    Matrix symbols get 60 to 220 pixels (whole pixels per module, at least
    2), linear symbols and PDF417 180 to 480.
    """
    out = []
    for i, nick in enumerate(SOLO):
        rng = random.Random(1000 + i)
        layouts = []
        for k in range(size.positions):
            sym = symbol(nick, rng, f"{k}")
            wide = sym.linear or sym.nick == "pdf417"
            m = module_for(sym, rng.uniform(180, 480) if wide else rng.uniform(60, 220))
            (cx, cy), = _place_apart(rng, 1280, 720, [_extent(sym, m)])
            layouts.append([Place(f"p{k}", sym, cx, cy, m)])
        for family, props in (("alone", {"symbologies": nick}), ("all-on", {})):
            out.append(Scene(family, nick, 1280, 720, size.positions * size.hold,
                             _segments(layouts, size.hold), props, seed=1000 + i))
    return out


def matrix_scenes(size: Size) -> list[Scene]:
    """Two matrix codes together at 720p and 1080p (CI: 1080p for one pair)."""
    out = []
    for i, (a, b) in enumerate(MATRIX_PAIRS):
        for w, h in ((1280, 720), (1920, 1080)):
            if not size.full and h == 1080 and i > 0:
                continue
            rng = random.Random(2000 + 10 * i + h)
            layouts = []
            for k in range(size.layouts):
                syms = [symbol(a, rng, f"{k}a"), symbol(b, rng, f"{k}b")]
                mods = [module_for(s, rng.uniform(0.12, 0.2) * h * (2.2 if s.nick == "pdf417" else 1))
                        for s in syms]
                centres = _place_apart(rng, w, h, [_extent(s, m) for s, m in zip(syms, mods)])
                layouts.append([Place(f"l{k}{j}", s, cx, cy, m, angle=rng.uniform(-10, 10))
                                for j, (s, m, (cx, cy)) in enumerate(zip(syms, mods, centres))])
            out.append(Scene("multi-2d", f"{a}+{b} {h}p", w, h, size.layouts * size.hold,
                             _segments(layouts, size.hold), seed=2000 + 10 * i + h))
    return out


def edge_scenes(size: Size) -> list[Scene]:
    """Linear codes whose bars touch the frame's edge, or fill it edge to edge."""
    out = []
    w, h = 1280, 720
    for i, nick in enumerate(EDGE):
        rng = random.Random(3000 + i)
        layouts = []
        for k, where in enumerate(("left", "right", "top", "tight")):
            sym = symbol(nick, rng, f"E{k}")
            cols = sym.modules.shape[1]
            m = module_for(sym, 420) if where != "tight" else (w - 4) / cols
            bars_w = cols * m
            bars_h = int(round(bars_w * 0.3))
            pic_w = bars_w + 2 * 10 * m
            cy = rng.uniform(h * 0.3, h * 0.7)
            if where == "left":
                cx = pic_w / 2 - 10 * m
            elif where == "right":
                cx = w - pic_w / 2 + 10 * m
            elif where == "top":
                cx, cy = rng.uniform(pic_w / 2, w - pic_w / 2), bars_h / 2
            else:
                cx = w / 2
            quiet = 0.0 if where == "top" else None
            layouts.append([Place(f"{where}", sym, cx, cy, m, height=bars_h, quiet=quiet)])
        out.append(Scene("edge", nick, w, h, 4 * size.hold * 2, _segments(layouts, size.hold * 2), seed=3000 + i))
    return out


def region_scene(size: Size) -> Scene:
    """An active region in the middle; codes outside it and one inside."""
    rng = random.Random(4000)
    w, h = 1280, 720
    c39, c128 = symbol("code-39", rng), symbol("code-128", rng, "R")
    ean, qr = symbol("ean-13", rng), symbol("qr-code", rng, "IN")
    m39, m128 = 336 / c39.modules.shape[1], 378 / c128.modules.shape[1]
    places = [Place("code-39 out", c39, 230, 110, m39, height=110),
              Place("code-128 out", c128, w - 240, h - 100, m128, height=120),
              Place("ean-13 small out", ean, 130, h - 90, 1.5, height=70),
              Place("qr in", qr, w / 2, h / 2, 5.0)]
    return Scene("region", "outside 0.25,0.25,0.5,0.5", w, h, size.standing, lambda f: places,
                 {"active-region": "0.25,0.25,0.5,0.5"}, seed=4000)


def pan_scenes(size: Size) -> list[Scene]:
    """The camera pans 8 pixels a frame: codes slide left, blurred over half that.

    The long Code 128 starts fully in view at the right and is cut by the
    left edge after about 40 frames.
    """
    w, h = 1280, 720
    rng = random.Random(5000)
    long128 = symbols.make("code-128", "LONG-" + "".join(rng.choice(string.ascii_uppercase) for _ in range(19)))
    m, speed = 3.0, 8.0
    pw = long128.modules.shape[1] * m + 60

    def long_layout(f: int) -> list[Place]:
        return [Place("long", long128, w - pw / 2 - 20 - speed * f, h / 2, m, height=140)]

    qr, ean = symbol("qr-code", rng, "PAN"), symbol("ean-13", rng)

    def pair_layout(f: int) -> list[Place]:
        x = w - 300 - speed * f
        return [Place("qr", qr, x, 230, 6.0), Place("ean", ean, x + 40, 520, 3.0, height=150)]

    return [Scene("pan", "long code-128", w, h, size.motion, long_layout, seed=5000, pan_blur=lambda f: 4),
            Scene("pan", "qr-code+ean-13", w, h, size.motion, pair_layout, seed=5001, pan_blur=lambda f: 4)]


def occlusion_scene(size: Size) -> Scene:
    """A bar passes over two standing codes (0.4 s over each), then goes."""
    w, h = 1280, 720
    rng = random.Random(6000)
    ean, qr = symbol("ean-13", rng), symbol("qr-code", rng, "OCC")
    places = [Place("ean", ean, 400, 360, 3.0, height=160), Place("qr", qr, 900, 360, 6.0)]
    n = size.motion
    start, end = n // 4, n - n // 4

    def occ(f: int):
        if not start <= f < end:
            return []
        x = -150 + (w + 300) * (f - start) / (end - start)
        return [(x - 80, 0, x + 80, h)]

    return Scene("occlusion", "bar over ean-13, qr-code", w, h, n, lambda f: places, occluders=occ, seed=6000)


def shelf_scene(size: Size) -> Scene:
    """A shelf of one product: five identical EAN-13 side by side, drifting."""
    w, h = 1280, 720
    ean = symbol("ean-13", random.Random(7000))

    def layout(f: int) -> list[Place]:
        return [Place(f"facing {k}", ean, 150 + 245 * k + 0.7 * f, 360 + 0.3 * f, 2.0, height=120)
                for k in range(5)]

    return Scene("shelf", "5 identical ean-13", w, h, min(90, size.standing // 2), layout, seed=7000)


def approach_scenes(size: Size) -> list[Scene]:
    """A code grows from small and blurred to large and sharp."""
    w, h = 1280, 720
    rng = random.Random(8000)
    out = []
    for nick, m0, m1, hf in (("qr-code", 0.9, 9.0, None), ("ean-13", 0.7, 5.0, 0.45)):
        sym = symbol(nick, rng, "NEAR")
        n = size.motion

        def layout(f: int, sym=sym, m0=m0, m1=m1, hf=hf, n=n) -> list[Place]:
            t = f / max(1, n - 1)
            m = m0 * (m1 / m0) ** t
            bar_h = int(sym.modules.shape[1] * m * hf) if hf else None
            return [Place("near", sym, w / 2, h / 2, m, height=bar_h, blur=3.0 * (1 - t) ** 2)]

        out.append(Scene("approach", nick, w, h, n, layout, seed=8000 + len(out)))
    return out


def live_scenes(size: Size) -> list[Scene]:
    """A live 3840x2160 camera over dense print, a QR Code and a Code 128 in view."""
    rng = random.Random(9000)
    qr, c128 = symbol("qr-code", rng, "LIVE"), symbol("code-128", rng, "L")

    def layout(f: int) -> list[Place]:
        d = 6 * (f % 4)
        return [Place("qr", qr, 1300 + d, 1000, 10.0), Place("c128", c128, 2600 + d, 1200, 5.0, height=260)]

    return [Scene("live-4k", effort, 3840, 2160, 4, layout, {"effort": effort}, seed=9000,
                  texture="dense", live=True)
            for effort in EFFORTS]


def all_scenes(size: Size) -> list[Scene]:
    """Every family at `size`, in table order."""
    return (solo_scenes(size) + matrix_scenes(size) + edge_scenes(size) + [region_scene(size)]
            + pan_scenes(size) + [occlusion_scene(size), shelf_scene(size)] + approach_scenes(size)
            + live_scenes(size))
