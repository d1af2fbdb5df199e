"""Pictures of a symbol under one scene: geometry, printing style, optics and sensor, all seeded.

A picture is drawn by inverse mapping: every output pixel is split into
SUPERSAMPLE x SUPERSAMPLE samples, each traced back through the camera tilt,
the in-plane rotation and the cylinder to the label plane (in modules), where
it falls on ink, paper or the cluttered surface around the label.
"""

import io
import math
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

SUPERSAMPLE = 3
MARGIN_PX = 12


@dataclass(frozen=True)
class Scene:
    """Everything that degrades one picture; the defaults are a clean, flat, well-lit print."""
    module_px: float = 3.0      # pixels per module
    quiet: float = None         # quiet zone in modules (None: the symbology's own)
    blur: float = 0.0           # Gaussian sigma, in modules
    noise: float = 0.0          # additive Gaussian noise sigma, grey levels
    contrast: float = 100.0     # ink-to-paper difference, % of 205 grey levels
    jpeg: int = 0               # JPEG quality (0: lossless PNG)
    tilt: float = 0.0           # camera tilt about the vertical axis, degrees
    rotation: float = 0.0       # in-plane rotation, degrees
    curve: float = 0.0          # arc of a vertical cylinder the symbol spans, degrees
    occlusion: float = 0.0      # share of the symbol's area under pen strokes, %
    dots: float = 1.0           # module drawn as a disc of this diameter (modules); 1 = square
    logo: float = 0.0           # share of the symbol's area under a centred logo, %
    row_height: float = None    # module rows per stacked row (None: the symbology's own)

    def with_(self, **changes):
        return replace(self, **changes)


def _cells(seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.25, 0.75, size=(64, 64))


def _strokes(symbol, share, seed):
    """Pen strokes (segments, in plane modules) covering `share` % of the symbol.

    The strokes come from one seeded sequence, so a larger share keeps the
    strokes of every smaller one (the sweep degrades one picture further).
    """
    if share <= 0:
        return np.zeros((0, 4)), 1.0
    w, h = symbol.width, symbol.height
    width = 1.0
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:h:0.25, 0:w:0.25]
    px, py = xs.ravel() - w / 2, ys.ravel() - h / 2
    covered = np.zeros(px.shape, dtype=bool)
    segments = []
    diag = math.hypot(w, h)
    while covered.mean() * 100 < share and len(segments) < 400:
        x0, y0 = rng.uniform(-w / 2, w / 2), rng.uniform(-h / 2, h / 2)
        angle, length = rng.uniform(0, math.pi), rng.uniform(0.2, 0.5) * diag
        x1, y1 = x0 + length * math.cos(angle), y0 + length * math.sin(angle)
        segments.append((x0, y0, x1, y1))
        covered |= _near_segment(px, py, segments[-1], width / 2)
    return np.array(segments), width


def _near_segment(px, py, seg, radius):
    """Which points lie within `radius` of the segment (tested only inside its bounding box)."""
    x0, y0, x1, y1 = seg
    near = np.zeros(np.shape(px), dtype=bool)
    box = ((px >= min(x0, x1) - radius) & (px <= max(x0, x1) + radius)
           & (py >= min(y0, y1) - radius) & (py <= max(y0, y1) + radius))
    qx, qy = px[box], py[box]
    dx, dy = x1 - x0, y1 - y0
    t = np.clip(((qx - x0) * dx + (qy - y0) * dy) / (dx * dx + dy * dy), 0, 1)
    near[box] = (qx - x0 - t * dx) ** 2 + (qy - y0 - t * dy) ** 2 <= radius * radius
    return near


class _Geometry:
    """Maps image coordinates (modules, centred) back to the label plane and forth."""

    def __init__(self, scene, symbol, quiet):
        self.rot = math.radians(scene.rotation)
        self.tilt = math.radians(scene.tilt)
        arc = math.radians(scene.curve)
        self.radius = (symbol.width / 2) / (arc / 2) if arc > 0 else None
        self.distance = 2.5 * math.hypot(symbol.width + 2 * quiet, symbol.height + 2 * quiet)

    def forward(self, a, b):
        if self.radius is not None:
            a = self.radius * np.sin(np.clip(a / self.radius, -math.pi / 2, math.pi / 2))
        c, s = math.cos(self.rot), math.sin(self.rot)
        x1, y1 = c * a - s * b, s * a + c * b
        z = self.distance + x1 * math.sin(self.tilt)
        return self.distance * x1 * math.cos(self.tilt) / z, self.distance * y1 / z

    def inverse(self, x, y):
        """Plane (a, b), the cylinder angle of each sample, and which samples hit the plane."""
        d = self.distance
        den = d * math.cos(self.tilt) - x * math.sin(self.tilt)
        valid = den > 1e-6
        x1 = np.where(valid, x * d / np.where(valid, den, 1), 0)
        y1 = y * (d + x1 * math.sin(self.tilt)) / d
        c, s = math.cos(self.rot), math.sin(self.rot)
        x2, b = c * x1 + s * y1, -s * x1 + c * y1
        if self.radius is None:
            return x2, b, np.zeros_like(x2), valid
        inside = np.abs(x2) < self.radius
        phi = np.arcsin(np.clip(x2 / self.radius, -1, 1))
        return np.where(inside, self.radius * phi, x2), b, np.where(inside, phi, math.pi / 2), valid


def _is_finder(sym_name, col, row, symbol):
    """QR finder patterns (ISO/IEC 18004:2015 6.3.3): the 7x7 corners kept square by stylings."""
    if sym_name != 'QR':
        return np.zeros(col.shape, dtype=bool)
    w, h = symbol.grid.shape[1], symbol.grid.shape[0]
    left, right, top, bottom = col < 7, col >= w - 7, row < 7, row >= h - 7
    return (left & top) | (right & top) | (left & bottom)


def _ink(symbol, sym_name, scene, a, b, strokes):
    """Which samples (plane coordinates a, b, symbol-centred modules) are dark ink, and which lie on the symbol."""
    w, h = symbol.width, symbol.height
    u, v = a + w / 2, b + h / 2
    on = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    col = np.clip(np.floor(u).astype(int), 0, w - 1)
    edges = np.cumsum(symbol.row_heights)
    row = np.clip(np.searchsorted(edges, v, side='right'), 0, len(edges) - 1)
    dark = on & symbol.grid[row, col]
    if scene.dots < 1.0:
        centre_v = edges[row] - symbol.row_heights[row] / 2
        disc = (u - col - 0.5) ** 2 + (v - centre_v) ** 2 <= (scene.dots / 2) ** 2
        dark &= disc | _is_finder(sym_name, col, row, symbol)
    if scene.logo > 0:
        side = math.sqrt(scene.logo / 100 * w * h)
        pad = (np.abs(a) < side / 2) & (np.abs(b) < side / 2)
        dark = np.where(pad, a * a + b * b <= (0.35 * side) ** 2, dark)
    for seg in strokes[0]:
        dark |= _near_segment(a, b, seg, strokes[1] / 2)
    return dark


def render(symbol, sym, scene, seed):
    """The picture of `symbol` (of symbology `sym`) in `scene`: (file bytes, extension)."""
    quiet = sym.quiet if scene.quiet is None else scene.quiet
    if scene.row_height is not None and sym.kind == 'stacked':
        symbol = replace(symbol, row_heights=np.full(len(symbol.row_heights), float(scene.row_height)))
    geo = _Geometry(scene, symbol, quiet)
    lw, lh = symbol.width / 2 + quiet, symbol.height / 2 + quiet
    ta = np.concatenate([np.linspace(-lw, lw, 64), np.full(64, lw), np.linspace(lw, -lw, 64), np.full(64, -lw)])
    tb = np.concatenate([np.full(64, -lh), np.linspace(-lh, lh, 64), np.full(64, lh), np.linspace(lh, -lh, 64)])
    fx, fy = geo.forward(ta, tb)
    x_px = scene.module_px
    width = int(math.ceil((fx.max() - fx.min()) * x_px)) + 2 * MARGIN_PX
    height = int(math.ceil((fy.max() - fy.min()) * x_px)) + 2 * MARGIN_PX
    cx, cy = (fx.max() + fx.min()) / 2, (fy.max() + fy.min()) / 2

    off = (np.arange(SUPERSAMPLE) + 0.5) / SUPERSAMPLE
    sy = (np.arange(height)[:, None] + off[None, :]).ravel()
    sx = (np.arange(width)[:, None] + off[None, :]).ravel()
    x = (sx[None, :] - width / 2) / x_px + cx
    y = (sy[:, None] - height / 2) / x_px + cy
    x, y = np.broadcast_to(x, (len(sy), len(sx))), np.broadcast_to(y, (len(sy), len(sx)))
    a, b, phi, valid = geo.inverse(x, y)

    strokes = _strokes(symbol, scene.occlusion, seed + 1)
    dark = _ink(symbol, sym.name, scene, a, b, strokes)
    on_label = valid & (np.abs(a) <= lw) & (np.abs(b) <= lh) & (np.abs(phi) < math.pi / 2)
    cells = _cells(seed + 2)
    clutter = cells[np.floor(a / 2).astype(int) % 64, np.floor(b / 2).astype(int) % 64]
    tone = np.where(on_label, np.where(dark, 0.0, 1.0), clutter)
    if geo.radius is not None:
        tone = tone * (0.55 + 0.45 * np.cos(phi))
    tone = tone.reshape(height, SUPERSAMPLE, width, SUPERSAMPLE).mean(axis=(1, 3))

    span = 2.05 * scene.contrast
    grey = 140 - span / 2 + span * tone
    grey = _gaussian_blur(grey, scene.blur * x_px)
    if scene.noise > 0:
        grey = grey + np.random.default_rng(seed + 3).normal(0, 1, grey.shape) * scene.noise
    image = Image.fromarray(np.clip(np.rint(grey), 0, 255).astype(np.uint8), 'L')
    out = io.BytesIO()
    if scene.jpeg:
        image.save(out, 'JPEG', quality=int(scene.jpeg))
        return out.getvalue(), 'jpg'
    image.save(out, 'PNG')
    return out.getvalue(), 'png'


def _gaussian_blur(img, sigma):
    """Separable Gaussian blur with edge replication."""
    if sigma <= 0:
        return img
    r = max(1, int(math.ceil(3 * sigma)))
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    k /= k.sum()
    for axis in (0, 1):
        pad = [(0, 0), (0, 0)]
        pad[axis] = (r, r)
        p = np.pad(img, pad, mode='edge')
        n = img.shape[axis]
        img = sum(k[i] * (p[i:i + n] if axis == 0 else p[:, i:i + n]) for i in range(2 * r + 1))
    return img
