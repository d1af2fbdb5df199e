#!/usr/bin/python3
"""Time limits and stops of the element on adversarial frames.

Limits: frames of 720p to 8K, every effort, each content (a frame of codes,
noise, a 3-pixel checkerboard, tiled bull's-eyes, tiles of bars at many
angles, tiled PDF417 start patterns, text-like texture) pushed as video
(GRAY8, 30/1, not live) through `appsrc ! rlbarcode effort=E ! appsink`:
each frame's time inside the element (from its buffer on the element's
sink pad to its source pad), beside the effort's
limit (4 frame intervals for fast and balanced, 1 s for thorough; see
docs/ELEMENT-LIMITS.md). The first frame of a stream gets every search;
three frames are pushed and the slowest is shown.

Stops: one still picture (0/1, so thorough and no time limit) pushed, NULL
set `--stop-after` seconds later: how long set_state(NULL) takes.

    /usr/bin/python3 scripts/measure_limits.py --plugin-path .build/release
    /usr/bin/python3 scripts/measure_limits.py --sizes 4K,8K --stops-only

One line per row, `LIMIT size effort content worst_ms limit_ms over_ms
(each frame's ms; cpu: the process's CPU ms meanwhile)` and
`STOP size content null_ms`, then a Markdown table of each. On a machine
shared with other work, wall-clock exceeds CPU time by the wait for a core.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
from PIL import Image

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080), "4K": (3840, 2160), "8K": (7680, 4320)}
EFFORTS = ["fast", "balanced", "thorough"]
CONTENTS = ["codes", "noise", "checker3", "bullseyes", "bartiles", "pdf417starts", "text"]
FPS = 30


def limit_ms(effort):
    """The element's own limit for a 30 fps video frame (RLBarcodeElement.swift)."""
    return 1000.0 if effort == "thorough" else min(500.0, max(100.0, 4000.0 / FPS))


def zint_symbol(barcode, data, scale):
    """A zint symbol as a grey numpy array (0 dark, 255 light)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.png")
        subprocess.run(
            ["zint", "-b", str(barcode), "-d", data, "--scale", str(scale), "-o", path],
            check=True, capture_output=True)
        return np.asarray(Image.open(path).convert("L"), dtype=np.uint8)


def frame(content, w, h, rng):
    """One frame of `content`, h x w luma."""
    if content == "noise":
        return rng.integers(0, 256, (h, w), dtype=np.uint8)
    if content == "checker3":
        y, x = np.mgrid[0:h, 0:w]
        return np.where(((x // 3) + (y // 3)) % 2 == 0, 30, 225).astype(np.uint8)
    if content == "bullseyes":
        # Aztec-like bull's-eyes (rings one module of 3 pixels wide), tiled.
        m, rings = 3, 6
        side = (2 * rings + 1) * m
        yy, xx = np.mgrid[0:side, 0:side]
        ring = np.maximum(abs(xx // m - rings), abs(yy // m - rings))
        tile = np.where(ring % 2 == 0, 20, 235).astype(np.uint8)
        tile = np.pad(tile, m, constant_values=235)
        reps = (h // tile.shape[0] + 1, w // tile.shape[1] + 1)
        return np.tile(tile, reps)[:h, :w].copy()
    if content == "bartiles":
        # Tiles of 2-4 pixel bars, each tile at its own angle.
        out = np.empty((h, w), np.uint8)
        t = 96
        yy, xx = np.mgrid[0:t, 0:t].astype(np.float32)
        for ty in range(0, h, t):
            for tx in range(0, w, t):
                a = rng.uniform(0, np.pi)
                period = rng.uniform(4, 8)
                u = xx * np.cos(a) + yy * np.sin(a)
                tile = np.where((u % period) < period / 2, 25, 230).astype(np.uint8)
                out[ty:ty + t, tx:tx + t] = tile[: min(t, h - ty), : min(t, w - tx)]
        return out
    if content == "pdf417starts":
        # PDF417 start patterns (8 1 1 1 1 1 1 3 modules, 2 pixels a module)
        # in columns across the frame, with random codeword-like bars beside.
        widths = [8, 1, 1, 1, 1, 1, 1, 3]
        row = []
        dark = True
        for k in widths:
            row += [20 if dark else 235] * (2 * k)
            dark = not dark
        start = np.array(row, np.uint8)
        out = np.full((h, w), 235, np.uint8)
        period = 2 * (17 + 17 * 3)
        for x0 in range(0, w - period, period):
            out[:, x0:x0 + start.size] = start
            # Three codeword-like columns of random bars.
            for c in range(3):
                bars = rng.integers(1, 4, 10)
                pos = x0 + start.size + 34 * c
                dark = True
                for b in bars:
                    if pos >= x0 + period:
                        break
                    if dark:
                        out[:, pos:min(pos + 2 * b, x0 + period)] = 20
                    pos += 2 * b
                    dark = not dark
        # Rows of 3 modules (6 px) tall, each shifted a little, as in a symbol.
        for y0 in range(0, h, 6):
            out[y0:y0 + 6] = np.roll(out[y0:y0 + 6], int(rng.integers(-2, 3)), axis=1)
        return out
    if content == "text":
        # Dense text-like texture: lines of glyph-sized dark blobs.
        out = np.full((h, w), 230, np.uint8)
        gh = 14
        for y0 in range(4, h - gh, gh + 8):
            x = 4
            while x < w - 12:
                gw = int(rng.integers(4, 10))
                glyph = rng.random((gh, gw)) < 0.45
                out[y0:y0 + gh, x:x + gw][glyph] = 30
                x += gw + int(rng.integers(1, 4)) + (8 if rng.random() < 0.15 else 0)
        return out
    if content == "codes":
        out = np.clip(rng.normal(160, 6, (h, w)), 0, 255).astype(np.uint8)
        s = max(2, w // 640)
        symbols = [
            zint_symbol(13, "5901234123457", s),
            zint_symbol(20, "RLBARCODE-128", s),
            zint_symbol(58, "https://example.org/rlbarcode", s),
            zint_symbol(71, "DATA MATRIX 0123456789", s),
            zint_symbol(92, "AZTEC CODE 0123456789", s),
            zint_symbol(55, "PDF417 TEXT 0123456789", s),
        ]
        x, y, rowh = w // 20, h // 10, 0
        for sym in symbols:
            sh, sw = sym.shape
            if x + sw > w:
                x, y, rowh = w // 20, y + rowh + h // 20, 0
            if y + sh > h:
                break
            out[y:y + sh, x:x + sw] = sym
            x += sw + w // 20
            rowh = max(rowh, sh)
        return out
    raise ValueError(content)


def make_pipeline(Gst, w, h, effort, fps_n):
    desc = (
        f"appsrc name=src format=time caps=video/x-raw,format=GRAY8,width={w},height={h},framerate={fps_n}/1 "
        f"! rlbarcode name=bc effort={effort} message=false ! appsink name=sink emit-signals=true sync=false"
    )
    return Gst.parse_launch(desc)


def push(Gst, src, pixels, n):
    buf = Gst.Buffer.new_wrapped(pixels.tobytes())
    buf.pts = n * Gst.SECOND // FPS
    buf.duration = Gst.SECOND // FPS
    src.emit("push-buffer", buf)


def measure_limit(Gst, w, h, effort, pixels, frames):
    """Each frame's time inside the element, from its buffer on the
    element's sink pad to the same buffer on its source pad: wall-clock
    and the process's CPU time meanwhile (ms each)."""
    pipe = make_pipeline(Gst, w, h, effort, FPS)
    src, bc = pipe.get_by_name("src"), pipe.get_by_name("bc")
    entered, times, cpu = {}, [], []
    got = threading.Semaphore(0)

    def on_in(pad, info):
        entered[info.get_buffer().pts] = (time.monotonic(), time.process_time())
        return Gst.PadProbeReturn.OK

    def on_out(pad, info):
        t0 = entered.pop(info.get_buffer().pts, None)
        if t0 is not None:
            times.append((time.monotonic() - t0[0]) * 1000)
            cpu.append((time.process_time() - t0[1]) * 1000)
            got.release()
        return Gst.PadProbeReturn.OK

    bc.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_in)
    bc.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_out)
    pipe.set_state(Gst.State.PLAYING)
    for n in range(frames):
        push(Gst, src, pixels, n)
        if not got.acquire(timeout=120):
            times.append(float("inf"))
            break
    pipe.set_state(Gst.State.NULL)
    return times, cpu


def measure_stop(Gst, w, h, pixels, after):
    pipe = make_pipeline(Gst, w, h, "thorough", 0)
    src = pipe.get_by_name("src")
    pipe.set_state(Gst.State.PLAYING)
    buf = Gst.Buffer.new_wrapped(pixels.tobytes())
    buf.pts = 0
    src.emit("push-buffer", buf)
    time.sleep(after)
    t0 = time.monotonic()
    pipe.set_state(Gst.State.NULL)
    return (time.monotonic() - t0) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin-path", default=".build/release")
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--efforts", default=",".join(EFFORTS))
    ap.add_argument("--contents", default=",".join(CONTENTS))
    ap.add_argument("--frames", type=int, default=3, help="frames pushed per row (default 3)")
    ap.add_argument("--stop-sizes", default="4K,8K")
    ap.add_argument("--stop-contents", default="text,noise,bullseyes,pdf417starts")
    ap.add_argument("--stop-after", type=float, default=1.0, help="seconds from the push to NULL (default 1)")
    ap.add_argument("--limits-only", action="store_true")
    ap.add_argument("--stops-only", action="store_true")
    ap.add_argument("--seed", type=int, default=46)
    args = ap.parse_args()

    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin_path)
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import Gst

    Gst.init(None)
    if Gst.ElementFactory.find("rlbarcode") is None:
        sys.exit(f"rlbarcode not found in {args.plugin_path}")

    limit_rows, stop_rows = [], []
    sizes = args.sizes.split(",")
    if not args.stops_only:
        for size in sizes:
            w, h = SIZES[size]
            for content in args.contents.split(","):
                pixels = frame(content, w, h, np.random.default_rng(args.seed))
                for effort in args.efforts.split(","):
                    times, cpu = measure_limit(Gst, w, h, effort, pixels, args.frames)
                    worst, lim = max(times), limit_ms(effort)
                    limit_rows.append((size, effort, content, worst, lim, max(cpu, default=0)))
                    print(f"LIMIT {size} {effort} {content} {worst:.0f} {lim:.0f} {worst - lim:+.0f}"
                          f"  ({' '.join(f'{t:.0f}' for t in times)}; cpu {' '.join(f'{t:.0f}' for t in cpu)})",
                          flush=True)
    if not args.limits_only:
        for size in args.stop_sizes.split(","):
            w, h = SIZES[size]
            for content in args.stop_contents.split(","):
                pixels = frame(content, w, h, np.random.default_rng(args.seed))
                ms = measure_stop(Gst, w, h, pixels, args.stop_after)
                stop_rows.append((size, content, ms))
                print(f"STOP {size} {content} {ms:.0f}", flush=True)

    if limit_rows:
        efforts = args.efforts.split(",")
        print("\nslowest frame, wall-clock ms / the process's CPU ms meanwhile\n")
        print("| size | content | " + " | ".join(f"{e} (limit {limit_ms(e):.0f})" for e in efforts) + " |")
        print("|---|---|" + "---|" * len(efforts))
        for size in sizes:
            for content in args.contents.split(","):
                cells = [f"{r[3]:.0f} / {r[5]:.0f}" for r in limit_rows if r[0] == size and r[2] == content]
                if cells:
                    print(f"| {size} | {content} | " + " | ".join(cells) + " |")
        over = max(r[3] - r[4] for r in limit_rows)
        print(f"\nworst overrun: {over:+.0f} ms")
    if stop_rows:
        print("\n| still picture | content | NULL (ms) |\n|---|---|---|")
        for size, content, ms in stop_rows:
            print(f"| {size} | {content} | {ms:.0f} |")


if __name__ == "__main__":
    main()
