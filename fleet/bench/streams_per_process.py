#!/usr/bin/python3
"""How many live 1080p30 streams one process analyses in real time, per barcode element.

Usage: fleet/bench/streams_per_process.py [--elements rlbarcode,zbar,zxing] [--max 8 | --streams 1,2,4,8]
                                [--seconds 10] [--size 1920x1080] [--frames 30] [--props "analysis-threads=2"]
For N = 1, 2, ... streams (or the N of --streams) it builds one pipeline of N branches
    appsrc is-live=true (I420, 30/1) ! ELEMENT ! fakesink sync=true qos=true
and feeds every branch from the same frames held in memory (each a Code 128
symbol of its own, made with zint), every stream starting at another frame and
another phase of the frame period, each buffer stamped with the running time at
which it is pushed, as a camera stamps its frames. Per N it prints (JSON lines)
the frames pushed, the frames whose code was reported, the codes read of those
shown (each code is shown once a second per stream), the latency from push to
the element's output (p50, p99, ms), the late frames the sinks reported, the
frames analysed and skipped (rlbarcode's frames-analysed and frames-skipped;
the other elements analyse every frame that comes out), the process's CPU time
per second, its most threads, frames analysed per second per core of the
machine (`fps-per-core`) and per second of the process's CPU time, the
harness's pushing and probes included (`frames-per-cpu-s`). N holds
real time when the p99 latency is under one frame period, no sink saw a late
frame and every stream read every code it was shown (the first second left
out of the latencies); `every-frame` says whether every frame's code was read.
Without --streams the search ends after two sizes in a row that do not hold.
Every rlbarcode element of the process takes turns in one analysis pool
(`analysis-threads`, `RLBARCODE_ANALYSIS_THREADS`). Needs GST_PLUGIN_PATH to
hold libgstrlbarcode.so; zbar (plugins-bad) and zxing are skipped when
missing. Wall-clock figures: run it on an idle machine (the load average is
printed with each row).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

PROPS = {"rlbarcode": "report=every-frame symbologies=code-128", "zbar": "", "zxing": ""}


def make_frames(width, height, count):
    """`count` I420 frames, each with one Code 128 symbol (FB000000, FB000001...), as Gst.Buffers."""
    from PIL import Image
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "texts.txt")
        with open(listing, "w") as f:
            f.write("".join(f"FB{i:06d}\n" for i in range(count)))
        subprocess.run(["zint", "-b", "20", "--batch", "--filetype=PNG", "--scale=3", "--height=40",
                        "-o", os.path.join(tmp, "c~~~~~~.png"), "-i", listing], check=True, capture_output=True)
        chroma = bytes([128]) * ((width // 2) * (height // 2) * 2)
        buffers = []
        for i in range(count):
            code = Image.open(os.path.join(tmp, f"c{i + 1:06d}.png")).convert("L")
            frame = Image.new("L", (width, height), 200)
            margin = 60  # a quiet zone on every side
            x = margin + (width - code.width - 2 * margin) * (i % 5) // 4
            y = margin + (height - code.height - 2 * margin) * (i % 3) // 2
            frame.paste(code, (x, y))
            buffers.append(Gst.Buffer.new_wrapped(frame.tobytes() + chroma))
    return buffers


class Run:
    """N branches fed from `frames`; collects latencies, reads and late frames per branch."""

    def __init__(self, element, n, frames, width, height, props=""):
        self.element, self.n, self.frames = element, n, frames
        self.period = Gst.SECOND // 30
        caps = f"video/x-raw,format=I420,width={width},height={height},framerate=30/1"
        props = PROPS.get(element, "") + (" " + props if element == "rlbarcode" and props else "")
        branches = " ".join(
            f"appsrc name=src{i} is-live=true format=time caps={caps} max-bytes=0 ! "
            f"{element} name=el{i} {props} ! fakesink name=sink{i} sync=true qos=true"
            for i in range(n))
        self.pipeline = Gst.parse_launch(branches)
        self.latencies, self.read, self.late, self.pushed = [], set(), 0, 0
        self.codes, self.shown, self.outputs = set(), set(), 0
        self.lock = threading.Lock()
        self.warm_until = Gst.CLOCK_TIME_NONE
        for i in range(n):
            pad = self.pipeline.get_by_name(f"el{i}").get_static_pad("src")
            pad.add_probe(Gst.PadProbeType.BUFFER, self._on_output)

    def _on_output(self, pad, info):
        now = self.pipeline.get_clock().get_time() - self.pipeline.get_base_time()
        pts = info.get_buffer().pts
        with self.lock:
            self.outputs += 1
        if pts >= self.warm_until:  # the first second (caps, first allocations) is left out
            with self.lock:
                self.latencies.append(now - pts)
        return Gst.PadProbeReturn.OK

    def _on_message(self, msg):
        if msg.type == Gst.MessageType.QOS:
            self.late += 1
        elif msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.get_name() == "barcode" and s.has_field("timestamp"):
                self.read.add((msg.src.get_name(), s.get_value("timestamp")))
                self.codes.add((msg.src.get_name(), s.get_value("symbol")))
        elif msg.type == Gst.MessageType.ERROR:
            raise RuntimeError(msg.parse_error()[0].message)

    def run(self, seconds):
        cpu0, wall0, threads = sum(os.times()[:2]), time.monotonic(), 0
        self.pipeline.set_state(Gst.State.PLAYING)
        self.pipeline.get_state(5 * Gst.SECOND)
        clock, base = self.pipeline.get_clock(), self.pipeline.get_base_time()
        srcs = [self.pipeline.get_by_name(f"src{i}") for i in range(self.n)]
        bus = self.pipeline.get_bus()
        k0 = (clock.get_time() - base) // self.period + 1
        self.warm_until = (k0 + 30) * self.period
        total = int(seconds * 30)
        push0 = time.monotonic()
        for k in range(total):
            for i, src in enumerate(srcs):
                pts = (k0 + k) * self.period + i * self.period // self.n
                while clock.get_time() - base < pts:
                    time.sleep(0.0005)
                index = (k + i * len(self.frames) // self.n) % len(self.frames)
                self.shown.add((f"el{i}", f"FB{index:06d}"))
                buf = self.frames[index].copy()
                buf.pts, buf.duration = clock.get_time() - base, self.period
                src.emit("push-buffer", buf)
                self.pushed += 1
            while (msg := bus.pop()) is not None:
                self._on_message(msg)
            threads = max(threads, len(os.listdir("/proc/self/task")))
        pushing = time.monotonic() - push0
        time.sleep(0.5)
        while (msg := bus.pop()) is not None:
            self._on_message(msg)
        wall, cpu = time.monotonic() - wall0, sum(os.times()[:2]) - cpu0
        elements = [self.pipeline.get_by_name(f"el{i}") for i in range(self.n)]
        if self.element == "rlbarcode":
            analysed = sum(e.get_property("frames-analysed") for e in elements)
            skipped = sum(e.get_property("frames-skipped") for e in elements)
        else:
            analysed, skipped = self.outputs, 0
        self.pipeline.set_state(Gst.State.NULL)
        lat = sorted(self.latencies)
        pick = lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))] / 1e6, 1) if lat else None
        return {"streams": self.n, "pushed": self.pushed, "timed": len(lat), "read": len(self.read),
                "codes": f"{len(self.codes & self.shown)}/{len(self.shown)}",
                "p50-ms": pick(0.50), "p99-ms": pick(0.99), "late": self.late,
                "analysed": analysed, "skipped": skipped, "cpu-per-s": round(cpu / wall, 2),
                "threads": threads, "fps-per-core": round(analysed / pushing / os.cpu_count(), 1),
                "frames-per-cpu-s": round(analysed / cpu) if cpu > 0 else None,
                "load": round(os.getloadavg()[0], 1), "_all-codes": len(self.codes & self.shown) == len(self.shown)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", default="rlbarcode,zbar,zxing")
    ap.add_argument("--max", type=int, default=8)
    ap.add_argument("--streams", default="", help="the N to run, e.g. 1,2,4,8 (default: 1 to --max)")
    ap.add_argument("--props", default="", help="extra rlbarcode properties, e.g. analysis-threads=2")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--frames", type=int, default=30, help="distinct frames held in memory")
    args = ap.parse_args()
    Gst.init(None)
    width, height = (int(v) for v in args.size.split("x"))
    frames = make_frames(width, height, args.frames)
    period_ms = 1000 / 30
    for element in args.elements.split(","):
        if Gst.ElementFactory.find(element) is None:
            print(json.dumps({"element": element, "skipped": "not installed"}), flush=True)
            continue
        best, misses = 0, 0
        sizes = [int(v) for v in args.streams.split(",")] if args.streams else range(1, args.max + 1)
        for n in sizes:
            fig = Run(element, n, frames, width, height, args.props).run(args.seconds)
            all_codes = fig.pop("_all-codes")
            holds = (fig["p99-ms"] is not None and fig["p99-ms"] < period_ms and fig["late"] == 0 and all_codes)
            print(json.dumps({"element": element, **fig, "real-time": holds,
                              "every-frame": fig["read"] == fig["pushed"]}), flush=True)
            best = n if holds and misses == 0 else best
            misses += not holds
            if misses == 2 and not args.streams:  # two sizes in a row that do not hold: larger ones will not either
                break
        print(json.dumps({"element": element, "largest-real-time-N": best}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
