"""Scenes: codes placed on a background frame by frame, with ground truth."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from PIL import Image, ImageFilter

from .symbols import Symbol


@dataclass(frozen=True)
class Place:
    """One code in one frame: where, how large, how turned and how sharp."""
    key: str             # the code's identity within the scene
    symbol: Symbol
    cx: float            # centre of the symbol (quiet zone included), frame pixels
    cy: float
    module: float        # pixels per module
    angle: float = 0.0   # degrees, clockwise
    height: int | None = None  # bar height of linear symbols, pixels
    quiet: float | None = None  # quiet zone in modules (default 10 linear, 4 matrix)
    blur: float = 0.0    # Gaussian blur radius of the code alone (focus), pixels


@dataclass(frozen=True)
class Truth:
    """What is in view in one frame for one code."""
    key: str
    nick: str
    text: str
    addon: str
    corners: tuple[tuple[float, float], ...]  # top-left first, clockwise
    full: bool       # every corner in the frame and nothing over it
    visible: bool    # some part of it in the frame
    alt: tuple[str, ...] = ()  # the text in other readers' conventions

    @property
    def centre(self) -> tuple[float, float]:
        """The mean of the four corners."""
        return (sum(c[0] for c in self.corners) / 4, sum(c[1] for c in self.corners) / 4)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass
class Scene:
    """A seeded clip: a layout per frame, drawn on a background."""
    family: str
    name: str
    width: int
    height: int
    frames: int
    layout: Callable[[int], list[Place]]
    props: dict[str, str] = field(default_factory=dict)  # rlbarcode properties
    seed: int = 1
    occluders: Callable[[int], list[Box]] = lambda f: []
    pan_blur: Callable[[int], int] = lambda f: 0  # horizontal motion blur, pixels
    texture: str = "paper"  # "paper" or "dense"
    fps: int = 30
    live: bool = False

    @property
    def nicks(self) -> set[str]:
        """The symbologies of every code of the scene."""
        return {p.symbol.nick for f in range(self.frames) for p in self.layout(f)}

    def background(self) -> np.ndarray:
        """The scene's background, drawn once."""
        if getattr(self, "_bg", None) is None:
            self._bg = _background(self.width, self.height, self.seed, self.texture)
        return self._bg

    def noise(self) -> np.ndarray:
        """Sensor noise (sigma 2.5), a tile cut at a seeded offset per frame."""
        if getattr(self, "_noise", None) is None:
            rng = np.random.default_rng((self.seed, 7))
            self._noise = rng.normal(0, 2.5, (self.height + 64, self.width + 64)).astype(np.float32)
        return self._noise

    def render(self, f: int) -> tuple[np.ndarray, list[Truth]]:
        """Frame `f` as grey pixels and the ground truth of its codes."""
        rng = np.random.default_rng((self.seed, f))
        frame = self.background().copy()
        truths = []
        occ = self.occluders(f)
        for place in self.layout(f):
            corners = _paste(frame, place)
            truths.append(_truth(place, corners, occ, self.width, self.height))
        for x0, y0, x1, y1 in occ:
            frame[max(0, int(y0)):max(0, int(y1)), max(0, int(x0)):max(0, int(x1))] = 70
        blur = self.pan_blur(f)
        if blur > 1:
            frame = _box_blur_x(frame, blur)
        dy, dx = rng.integers(0, 64, 2)
        frame += self.noise()[dy:dy + self.height, dx:dx + self.width]
        np.clip(frame, 0, 255, out=frame)
        frame = frame.astype(np.uint8)
        return frame, truths


def i420(grey: np.ndarray) -> bytes:
    """An I420 frame (neutral chroma) from grey pixels."""
    h, w = grey.shape
    return grey.tobytes() + bytes([128]) * (2 * ((w + 1) // 2) * ((h + 1) // 2))


def _background(w: int, h: int, seed: int, texture: str) -> np.ndarray:
    """A light seeded gradient (175 +- 30), with clutter over it for "dense"."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = 175 + 30 * np.sin(xx / w * math.pi * rng.uniform(0.5, 1.5)) * np.cos(yy / h * math.pi * rng.uniform(0.5, 1.5))
    if texture == "dense":
        g = _dense_texture(w, h, rng, g)
    return g.astype(np.float32)


def _dense_texture(w: int, h: int, rng: np.random.Generator, g: np.ndarray) -> np.ndarray:
    """Print-like clutter: dark strokes, stripes and blocks of many sizes."""
    img = Image.fromarray(np.clip(g, 0, 255).astype(np.uint8))
    from PIL import ImageDraw
    draw = ImageDraw.Draw(img)
    n = w * h // 900
    xs, ys = rng.integers(0, w, n), rng.integers(0, h, n)
    lens, widths = rng.integers(4, 60, n), rng.integers(1, 5, n)
    shades, vertical = rng.integers(0, 120, n), rng.random(n) < 0.5
    for x, y, ln, wd, s, v in zip(xs, ys, lens, widths, shades, vertical):
        if v:
            draw.rectangle([x, y, x + wd, y + ln], fill=int(s))
        else:
            draw.rectangle([x, y, x + ln, y + wd], fill=int(s))
    return np.asarray(img, np.float32)


def _paste(frame: np.ndarray, p: Place) -> list[tuple[float, float]]:
    """Draws `p` into `frame`; returns the symbol's corners (quiet zone out)."""
    pic, box = p.symbol.picture(p.module, p.height, p.quiet)
    img = Image.fromarray(pic)
    if p.blur > 0:
        img = img.filter(ImageFilter.GaussianBlur(p.blur))
    h, w = pic.shape
    mask = Image.new("L", (w, h), 255)
    if p.angle:
        img = img.rotate(-p.angle, Image.BILINEAR, expand=True, fillcolor=255)
        mask = mask.rotate(-p.angle, Image.BILINEAR, expand=True, fillcolor=0)
    pw, ph = img.size
    ox, oy = int(round(p.cx - pw / 2)), int(round(p.cy - ph / 2))
    fh, fw = frame.shape
    x0, y0, x1, y1 = max(0, ox), max(0, oy), min(fw, ox + pw), min(fh, oy + ph)
    if x1 > x0 and y1 > y0:
        src = np.asarray(img, np.float32)[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
        a = np.asarray(mask, np.float32)[y0 - oy:y1 - oy, x0 - ox:x1 - ox] / 255
        frame[y0:y1, x0:x1] = frame[y0:y1, x0:x1] * (1 - a) + src * a
    # corners of the symbol box, turned about the picture's centre
    bx0, by0, bx1, by1 = box
    rad = math.radians(p.angle)
    cos, sin = math.cos(rad), math.sin(rad)
    out = []
    for x, y in ((bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1)):
        dx, dy = x - w / 2, y - h / 2
        out.append((ox + pw / 2 + dx * cos - dy * sin, oy + ph / 2 + dx * sin + dy * cos))
    return out


def _truth(p: Place, corners, occluders: list[Box], fw: int, fh: int) -> Truth:
    """Whether the code of `p` is fully in view, and in view at all."""
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    inside = all(-0.5 <= x <= fw + 0.5 for x in xs) and all(-0.5 <= y <= fh + 0.5 for y in ys)
    covered = any(min(xs) < ox1 and max(xs) > ox0 and min(ys) < oy1 and max(ys) > oy0
                  for ox0, oy0, ox1, oy1 in occluders)
    visible = max(xs) > 0 and min(xs) < fw and max(ys) > 0 and min(ys) < fh
    return Truth(p.key, p.symbol.nick, p.symbol.text, p.symbol.addon, tuple(corners),
                 inside and not covered, visible, p.symbol.alt)


def _box_blur_x(frame: np.ndarray, length: int) -> np.ndarray:
    """Horizontal motion blur: the mean of `length` neighbouring pixels."""
    pad = np.pad(frame, ((0, 0), (length // 2, length - length // 2)), mode="edge")
    c = np.cumsum(pad, axis=1, dtype=np.float64)
    c = np.concatenate([np.zeros((frame.shape[0], 1)), c], axis=1)
    return ((c[:, length:length + frame.shape[1]] - c[:, :frame.shape[1]]) / length).astype(np.float32)
