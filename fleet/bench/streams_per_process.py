#!/usr/bin/python3
"""How many live 1080p30 streams one process analyses in real time, per barcode element.

Usage: fleet/bench/streams_per_process.py [--elements rlbarcode,zbar,zxing] [--max 8 | --streams 1,2,4,8]
                                [--seconds 10] [--size 1920x1080] [--frames 30] [--props "analysis-threads=2"]
                                [--scene code-128 | demo | clutter | photos]
For N = 1, 2, ... streams (or the N of --streams) it builds one pipeline of N branches
    appsrc is-live=true min-latency=1/30 s (I420, 30/1) ! ELEMENT !
        fakesink sync=true qos=true max-lateness=0
and feeds every branch from the same frames held in memory, every stream
starting at another frame and another phase of the frame period. As a
camera (v4l2src) does, each buffer is stamped with the running time at which
its frame began, one frame period before it is pushed, and the source
declares one period of latency; the sinks add their 20 ms processing
deadline, so a frame is due at the sink 20 ms after it was pushed, and a
sink counts every frame that comes after that as late (`max-lateness=0`:
stricter than a display's 5 to 20 ms). The frames (--scene):
- `code-128` (the default): each a Code 128 symbol of its own, made with zint,
  on a plain frame; rlbarcode runs with `symbologies=code-128`;
- `demo`: the frames of pipelines/media/demo.mp4 (every symbology the element
  reads, moving, with H.264's losses) scaled to --size, every symbology on;
  a code counts as shown to a stream that was shown 15 frames of its time in
  view (pipelines/media/demo-codes.txt);
- `clutter`: the worst case, dense print-like clutter over the whole frame
  (the scenario suite's live texture) with a QR Code and a Code 128, shifted
  a few pixels from frame to frame, every symbology on;
- `photos`: a different scene in every frame, the other worst case: the
  frames of ../shared/tools/element_bench.py's clip (corpus photos
  letterboxed into --size, a tenth of them without a code), every symbology
  on, each reading judged by corpus_eval.py's rules. A photo counts as read
  when one of its readings is right; since some photos are read by no
  analysis, each element's codes are held against what it reads in the same
  frames when nothing waits for them (a stream that is not live, every
  frame analysed): the figure is what real time costs.
Per N it prints (JSON lines)
the frames pushed, those showing a code, the frames with a reading, the codes read of those
shown (each code is shown once a second per stream), the latency from push to
the element's output (p50, p99, ms: the element's own time per frame, from
GStreamer's latency tracer, so that no probe of this script's runs in the
streaming threads), the late frames the sinks reported, the
frames analysed and skipped (rlbarcode's frames-analysed and frames-skipped;
the other elements analyse every frame that comes out), the process's CPU time
per second, its most threads, frames analysed per second per core of the
machine (`fps-per-core`) and per second of the process's CPU time, the
harness's pushing and probes included (`frames-per-cpu-s`). N holds
real time when no sink saw a late frame and every stream read every code it
was shown (the first second, while the pipeline's latency is set, left out); `every-frame` says whether every frame showing a code had a reading.
Without --streams the search ends after two sizes in a row that do not hold.
Every rlbarcode element of the process takes turns in one analysis pool
(`analysis-threads`, `RLBARCODE_ANALYSIS_THREADS`). Needs GST_PLUGIN_PATH to
hold libgstrlbarcode.so; zbar (plugins-bad) and zxing are skipped when
missing. Wall-clock figures: run it on an idle machine (the load average is
printed with each row).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

PROPS = {"rlbarcode": "report=every-frame", "zbar": "", "zxing": ""}


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# GStreamer's latency tracer logs each element's time per buffer to this file
# (set before Gst.init); each run reads what it added.
TRACE = tempfile.NamedTemporaryFile(prefix="streams-bench-", suffix=".log", delete=False).name
ELEMENT_LATENCY = re.compile(r"element-latency, .*element=\(string\)el(\d+), .*time=\(guint64\)(\d+),")


def element_times(start):
    """Per branch, the element's times (ns) per buffer logged after byte `start` of TRACE."""
    times = collections.defaultdict(list)
    with open(TRACE, errors="replace") as log:
        log.seek(start)
        for line in log:
            if (m := ELEMENT_LATENCY.search(line)):
                times[int(m.group(1))].append(int(m.group(2)))
    return times


class Frames:
    """The frames of a scene as Gst.Buffers, and which codes each one shows.

    `codes[i]` is the set of texts frame i shows (a peer's text for the same
    code is mapped to it through `aliases`); a code counts as shown to a
    stream once it was shown `needed` frames that show it."""

    def __init__(self, buffers, codes, needed=1, aliases=None, judges=None):
        self.buffers, self.codes, self.needed = buffers, codes, needed
        self.aliases = aliases or {}
        # photos: frame i's label is read when judges[i](structure) says a reading is right
        self.judges = judges

    def __len__(self):
        return len(self.buffers)


def code128_frames(width, height, count):
    buffers = make_frames(width, height, count)
    return Frames(buffers, [{f"FB{i:06d}"} for i in range(count)])


def demo_frames(width, height, count):
    """The demo clip's frames scaled to width x height (at most `count`; 0: all)."""
    clip = os.path.join(ROOT, "pipelines", "media", "demo.mp4")
    pipeline = Gst.parse_launch(
        f"filesrc location={clip} ! decodebin ! videoconvert ! videoscale ! "
        f"video/x-raw,format=I420,width={width},height={height} ! appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    buffers = []
    while count == 0 or len(buffers) < count:
        sample = sink.emit("try-pull-sample", 10 * Gst.SECOND)
        if sample is None:
            break
        ok, info = sample.get_buffer().map(Gst.MapFlags.READ)
        buffers.append(Gst.Buffer.new_wrapped(bytes(info.data)))
        sample.get_buffer().unmap(info)
    pipeline.set_state(Gst.State.NULL)
    if not buffers:
        raise SystemExit(f"no frames decoded from {clip}")
    codes, aliases = [set() for _ in buffers], {}
    with open(os.path.join(ROOT, "pipelines", "media", "demo-codes.txt")) as listing:
        for line in listing:
            if line.startswith("#") or not line.strip():
                continue
            _, text, _, printed, spans = line.rstrip("\n").split("\t")
            if printed != "-":
                aliases[printed] = text
            for span in spans.split(","):
                a, b = (float(v) for v in span.split("-"))
                for i in range(int(a * 30), min(len(buffers), int(b * 30))):
                    codes[i].add(text)
    return Frames(buffers, codes, needed=15, aliases=aliases)


def clutter_frames(width, height, count):
    """Dense clutter with a QR Code and a Code 128, `count` frames a few pixels apart."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import random
    from scenarios.families import symbol
    from scenarios.scenes import Place, Scene
    rng = random.Random(9100)
    qr, c128 = symbol("qr-code", rng, "WORST"), symbol("code-128", rng, "W")
    sx, sy = width / 3840, height / 2160

    def layout(f):
        d = 6 * (f % 4)
        return [Place("qr", qr, 1300 * sx + d, 1000 * sy, 10.0 * sx),
                Place("c128", c128, 2600 * sx + d, 1200 * sy, 5.0 * sx, height=int(260 * sy))]

    scene = Scene("clutter", "worst", width, height, count, layout, seed=9100, texture="dense")
    chroma = bytes([128]) * ((width // 2) * (height // 2) * 2)
    buffers = [Gst.Buffer.new_wrapped(scene.render(f)[0].tobytes() + chroma) for f in range(count)]
    return Frames(buffers, [{qr.text, c128.text} for _ in range(count)])


def photo_frames(width, height, count):
    """element_bench.py's clip of corpus photos (`count` frames; 0: its default of 120)."""
    tools = os.path.join(ROOT, "..", "shared", "tools")
    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    if not os.path.isdir(corpus) or not os.path.exists(os.path.join(tools, "element_bench.py")):
        raise SystemExit(f"--scene photos needs {corpus} and {tools}/element_bench.py")
    sys.path.insert(0, tools)
    import corpus_eval
    import element_bench
    cache = os.path.join(tempfile.gettempdir(), "rlbarcode-streams-clips")
    folder, _, _ = element_bench.build_clip(corpus, cache, width, height, count or 120, True)
    listing = element_bench.load_frames(folder)
    size = width * height * 3 // 2
    buffers, codes, judges = [], [], []
    with open(os.path.join(folder, "clip.i420"), "rb") as clip:
        for k, fr in enumerate(listing):
            buffers.append(Gst.Buffer.new_wrapped(clip.read(size)))
            codes.append(set() if fr["negative"] else {f"photo{k}"})
            expected = corpus_eval.Expectation(fr["symbology"], fr["exp_text"], fr["exp_bytes"], fr["negative"], False)
            judges.append(lambda s, e=expected: e.verdict([corpus_eval.read_barcode_message(Gst, s)]) == "ok")
    return Frames(buffers, codes, judges=judges)


SCENES = {"code-128": code128_frames, "demo": demo_frames, "clutter": clutter_frames, "photos": photo_frames}


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


def caps_of(width, height):
    """The caps every branch's source has."""
    return f"video/x-raw,format=I420,width={width},height={height},framerate=30/1"


def element_props(element, props):
    """`element`'s properties in the bench: its PROPS, and `props` for rlbarcode."""
    return " ".join(filter(None, [PROPS.get(element, ""), props if element == "rlbarcode" else ""]))


class Readings:
    """What the bus says of branches fed from `frames`: late frames, frames read and codes read.

    `index_of` maps (branch, pts) to the frame pushed with that pts, for the photos' judges."""

    def __init__(self, frames):
        self.frames, self.index_of = frames, {}
        self.read, self.codes, self.late = set(), set(), 0
        self.warm_until = Gst.CLOCK_TIME_NONE

    def on_message(self, msg):
        if msg.type == Gst.MessageType.QOS:
            # A frame the sink found late, or one the element dropped (zbar
            # and zxing drop frames on QoS events); the first second, while
            # the pipeline's latency is set, is left out.
            if msg.parse_qos()[3] >= self.warm_until:
                self.late += 1
        elif msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.get_name() == "barcode" and s.has_field("timestamp"):
                name, ts = msg.src.get_name(), s.get_value("timestamp")
                self.read.add((name, ts))
                if self.frames.judges is None:
                    text = s.get_value("symbol")
                    self.codes.add((name, self.frames.aliases.get(text, text)))
                elif (k := self.index_of.get((name, ts))) is not None and self.frames.codes[k] \
                        and self.frames.judges[k](s):
                    self.codes.add((name, f"photo{k}"))
        elif msg.type == Gst.MessageType.ERROR:
            raise RuntimeError(msg.parse_error()[0].message)


class Run:
    """N branches fed from `frames`; collects latencies, reads and late frames per branch."""

    def __init__(self, element, n, frames, width, height, props="", readable=None):
        self.element, self.n, self.frames = element, n, frames
        self.seen = [collections.Counter() for _ in range(n)]
        self.period = Gst.SECOND // 30
        caps, props = caps_of(width, height), element_props(element, props)
        branches = " ".join(
            f"appsrc name=src{i} is-live=true format=time min-latency={self.period} caps={caps} max-bytes=0 ! "
            f"{element} name=el{i} {props} ! fakesink name=sink{i} sync=true qos=true max-lateness=0"
            for i in range(n))
        self.pipeline = Gst.parse_launch(branches)
        self.pushed, self.shown, self.coded = 0, set(), 0
        self.readings = Readings(frames)
        self.readable = readable  # photos: the labels the element reads with no clock
        self.trace_from = os.path.getsize(TRACE)

    def run(self, seconds):
        cpu0, wall0, threads = sum(os.times()[:2]), time.monotonic(), 0
        self.pipeline.set_state(Gst.State.PLAYING)
        self.pipeline.get_state(5 * Gst.SECOND)
        clock, base = self.pipeline.get_clock(), self.pipeline.get_base_time()
        srcs = [self.pipeline.get_by_name(f"src{i}") for i in range(self.n)]
        bus = self.pipeline.get_bus()
        k0 = (clock.get_time() - base) // self.period + 1
        readings = self.readings
        readings.warm_until = (k0 + 30) * self.period
        total = int(seconds * 30)
        push0 = time.monotonic()
        for k in range(total):
            for i, src in enumerate(srcs):
                pts = (k0 + k) * self.period + i * self.period // self.n
                while clock.get_time() - base < pts:
                    time.sleep(0.0005)
                index = (k + i * len(self.frames) // self.n) % len(self.frames)
                self.seen[i].update(self.frames.codes[index])
                self.coded += bool(self.frames.codes[index])
                buf = self.frames.buffers[index].copy()
                # Stamped with the time its frame began, a period ago.
                buf.pts, buf.duration = max(0, clock.get_time() - base - self.period), self.period
                readings.index_of[(f"el{i}", buf.pts)] = index
                src.emit("push-buffer", buf)
                self.pushed += 1
            while (msg := bus.pop()) is not None:
                readings.on_message(msg)
            threads = max(threads, len(os.listdir("/proc/self/task")))
        pushing = time.monotonic() - push0
        self.shown = {(f"el{i}", text) for i, seen in enumerate(self.seen)
                      for text, frames in seen.items() if frames >= self.frames.needed
                      and (self.readable is None or text in self.readable)}
        time.sleep(0.5)
        while (msg := bus.pop()) is not None:
            readings.on_message(msg)
        wall, cpu = time.monotonic() - wall0, sum(os.times()[:2]) - cpu0
        elements = [self.pipeline.get_by_name(f"el{i}") for i in range(self.n)]
        times = element_times(self.trace_from)
        if self.element == "rlbarcode":
            analysed = sum(e.get_property("frames-analysed") for e in elements)
            skipped = sum(e.get_property("frames-skipped") for e in elements)
        else:
            analysed, skipped = sum(len(t) for t in times.values()), 0
        self.pipeline.set_state(Gst.State.NULL)
        lat = sorted(v for t in times.values() for v in t[30:])  # each stream's first second left out
        pick = lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))] / 1e6, 1) if lat else None
        return {"streams": self.n, "pushed": self.pushed, "with-code": self.coded, "timed": len(lat),
                "read": len(readings.read),
                "codes": f"{len(readings.codes & self.shown)}/{len(self.shown)}",
                "p50-ms": pick(0.50), "p99-ms": pick(0.99), "late": readings.late,
                "analysed": analysed, "skipped": skipped, "cpu-per-s": round(cpu / wall, 2),
                "threads": threads, "fps-per-core": round(analysed / pushing / os.cpu_count(), 1),
                "frames-per-cpu-s": round(analysed / cpu) if cpu > 0 else None,
                "load": round(os.getloadavg()[0], 1), "_all-codes": len(readings.codes & self.shown) == len(self.shown)}


def offline_reads(element, frames, width, height, props):
    """Photos: the labels `element` reads when every frame is analysed and nothing waits for it
    (appsrc not live, timestamps 1/30 s apart, fakesink sync=false)."""
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps={caps_of(width, height)} block=true max-buffers=4 ! "
        f"{element} name=el0 {element_props(element, props)} ! fakesink sync=false")
    readings = Readings(frames)
    bus, src = pipeline.get_bus(), pipeline.get_by_name("src")
    pipeline.set_state(Gst.State.PLAYING)
    for k, buffer in enumerate(frames.buffers):
        buf = buffer.copy()
        buf.pts, buf.duration = k * Gst.SECOND // 30, Gst.SECOND // 30
        readings.index_of[("el0", buf.pts)] = k
        src.emit("push-buffer", buf)
    src.emit("end-of-stream")
    while (msg := bus.timed_pop(60 * Gst.SECOND)) is not None and msg.type != Gst.MessageType.EOS:
        readings.on_message(msg)
    pipeline.set_state(Gst.State.NULL)
    return {label for _, label in readings.codes}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", default="rlbarcode,zbar,zxing")
    ap.add_argument("--max", type=int, default=8)
    ap.add_argument("--streams", default="", help="the N to run, e.g. 1,2,4,8 (default: 1 to --max)")
    ap.add_argument("--props", default="", help="extra rlbarcode properties, e.g. analysis-threads=2")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--frames", type=int, default=30,
                    help="distinct frames held in memory (demo: 0 takes the whole clip)")
    ap.add_argument("--scene", choices=sorted(SCENES), default="code-128")
    args = ap.parse_args()
    os.environ["GST_TRACERS"] = "latency(flags=element)"
    os.environ["GST_DEBUG"] = ",".join(filter(None, [os.environ.get("GST_DEBUG"), "GST_TRACER:7"]))
    os.environ["GST_DEBUG_FILE"] = TRACE
    Gst.init(None)
    width, height = (int(v) for v in args.size.split("x"))
    frames = SCENES[args.scene](width, height, args.frames)
    props = ("symbologies=code-128 " if args.scene == "code-128" else "") + args.props
    for element in args.elements.split(","):
        if Gst.ElementFactory.find(element) is None:
            print(json.dumps({"element": element, "skipped": "not installed"}), flush=True)
            continue
        readable = offline_reads(element, frames, width, height, props) if frames.judges else None
        best, misses = 0, 0
        sizes = [int(v) for v in args.streams.split(",")] if args.streams else range(1, args.max + 1)
        for n in sizes:
            fig = Run(element, n, frames, width, height, props, readable).run(args.seconds)
            if readable is not None:
                fig["read-with-no-clock"] = f"{len(readable)}/{sum(1 for c in frames.codes if c)}"
            all_codes = fig.pop("_all-codes")
            holds = fig["late"] == 0 and all_codes
            print(json.dumps({"element": element, "scene": args.scene, **fig, "real-time": holds,
                              "every-frame": fig["read"] >= fig["with-code"]}), flush=True)
            best = n if holds and misses == 0 else best
            misses += not holds
            if misses == 2 and not args.streams:  # two sizes in a row that do not hold: larger ones will not either
                break
        print(json.dumps({"element": element, "largest-real-time-N": best}), flush=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        os.unlink(TRACE)
