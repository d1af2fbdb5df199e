"""Pushing scenes through real pipelines and collecting the bus messages.

Recorded scenes go `appsrc ! ELEMENT ! fakesink` with timestamps 1/fps
apart, as fast as the element takes them (every frame analysed). Live
scenes go from `appsrc is-live=true` paced at the frame rate, leaky and
stamped like a camera (v4l2src): each frame with the running time at which
it began, one frame interval before it is pushed, and one interval of
latency declared; into `fakesink sync=true qos=true` like a display.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass, field

from .scenes import Scene, Truth, i420

Gst = None  # set by init()

# What each peer element reads, as spec nicks, and the zxing element's names.
ZBAR_NICKS = {"ean-13", "upc-a", "upc-e", "ean-8", "code-128", "code-39", "code-93", "itf",
              "codabar", "databar", "databar-expanded", "qr-code"}
ZXING_FORMAT = {"ean-13": "ean_13", "upc-a": "upc_a", "upc-e": "upc_e", "ean-8": "ean_8",
                "code-128": "code_128", "code-39": "code_39", "code-93": "code_93", "itf": "itf",
                "codabar": "codabar", "databar": "rss_14", "databar-expanded": "rss_expanded",
                "qr-code": "qr_code", "pdf417": "pdf_417", "aztec": "aztec"}
ENGINES = ("rlbarcode", "zbar", "zxing")


class SetupError(RuntimeError):
    """A needed element or module is missing (the suite cannot run)."""


def init(plugin_dir: str | None) -> None:
    """Loads GStreamer with the rlbarcode plugin from `plugin_dir`."""
    global Gst
    if plugin_dir:
        plugin_dir = os.path.abspath(plugin_dir)
        if not os.path.exists(os.path.join(plugin_dir, "libgstrlbarcode.so")):
            raise SetupError(f"{plugin_dir} holds no libgstrlbarcode.so")
        os.environ["GST_PLUGIN_PATH"] = plugin_dir
        key = hashlib.sha1(plugin_dir.encode()).hexdigest()[:12]
        os.environ["GST_REGISTRY"] = f"/tmp/rlbarcode-scenarios-registry-{key}.bin"
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst as _Gst
    except (ImportError, ValueError) as e:
        raise SetupError(f"python3-gi with GStreamer is missing ({e})")
    _Gst.init(None)
    Gst = _Gst
    factory = Gst.ElementFactory.find("rlbarcode")
    if factory is None:
        raise SetupError("the rlbarcode element is not found (give --plugin-dir)")
    loaded = factory.load().get_plugin().get_filename() or ""
    if plugin_dir and not loaded.startswith(plugin_dir):
        raise SetupError(f"rlbarcode comes from {loaded}, not from {plugin_dir}")


def has_element(name: str) -> bool:
    """Whether GStreamer knows the element factory `name`."""
    return Gst.ElementFactory.find(name) is not None


def peer_nicks(engine: str) -> set[str]:
    """The symbologies `engine` can read (every one for rlbarcode)."""
    if engine == "zbar":
        return ZBAR_NICKS
    if engine == "zxing":
        return set(ZXING_FORMAT) | {"data-matrix"}  # Data Matrix only with format=all
    return set()


def element_desc(engine: str, scene: Scene, report: str) -> str:
    """The element part of the launch line for `engine` on `scene`."""
    if engine == "rlbarcode":
        props = dict(scene.props, report=report)
        return "rlbarcode " + " ".join(f'{k}="{v}"' for k, v in props.items())
    if engine == "zbar":
        return "zbar"
    solo = scene.props.get("symbologies")
    return f"zxing format={ZXING_FORMAT.get(solo, 'all') if solo else 'all'}"


@dataclass
class Report:
    """One barcode message."""
    frame: int
    text: str
    addon: str = ""
    corners: tuple[int, ...] = ()
    id: int | None = None
    new: bool | None = None
    ts: int = -1  # the timestamp itself, nanoseconds


@dataclass
class RunResult:
    """What one run of a scene through one element left on the bus."""
    reports: list[Report] = field(default_factory=list)
    statuses: list[dict] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    # live runs
    pushed: int = 0
    into_element: int = 0
    at_sink: int = 0
    sink_window: float = 0.0
    read_frames: int = 0


_CORNERS = re.compile(r"corners=\(int\)< ?([-0-9, ]*) ?>")


def _report(s, frame_ns: float) -> Report:
    """A `barcode` message's fields (frame: its timestamp in frame intervals)."""
    ok, ts = s.get_uint64("timestamp")
    frame = int(round(ts / frame_ns)) if ok else -1
    text = s.get_string("symbol") or ""
    addon = s.get_string("addon") or "" if s.has_field("addon") else ""
    m = _CORNERS.search(s.to_string()) if s.has_field("corners") else None
    corners = tuple(int(v) for v in m.group(1).split(",")) if m and m.group(1).strip() else ()
    rid = s.get_uint("id")[1] if s.has_field("id") else None
    new = s.get_boolean("new")[1] if s.has_field("new") else None
    return Report(frame, text, addon, corners, rid, new, ts if ok else -1)


def _status(s) -> dict:
    """A `barcode-status` message's fields."""
    return {"guidance": s.get_int("guidance")[1] if s.has_field("guidance") else 0,
            "in-range": s.get_boolean("in-range")[1] if s.has_field("in-range") else False,
            "partial": s.get_string("partial") or "" if s.has_field("partial") else ""}


def _collect(msg, result: RunResult, frame_ns: float) -> None:
    """Keeps the `barcode` and `barcode-status` element messages."""
    s = msg.get_structure()
    if s is None:
        return
    if s.get_name() == "barcode":
        result.reports.append(_report(s, frame_ns))
    elif s.get_name() == "barcode-status":
        result.statuses.append(_status(s))


def _caps(scene: Scene) -> str:
    """The raw video caps of the scene's frames."""
    return f"video/x-raw,format=I420,width={scene.width},height={scene.height},framerate={scene.fps}/1"


def run_recorded(scene: Scene, frames: list[bytes], desc: str, timeout: float) -> RunResult:
    """Every frame of `scene` through `desc`, timestamped, to EOS."""
    size = len(frames[0])
    pipe = Gst.parse_launch(
        f"appsrc name=src format=time is-live=false block=true max-bytes={2 * size} caps={_caps(scene)} "
        f"! {desc} ! fakesink sync=false")
    src, bus, result = pipe.get_by_name("src"), pipe.get_bus(), RunResult()
    frame_ns = Gst.SECOND / scene.fps
    pipe.set_state(Gst.State.PLAYING)
    start = time.monotonic()

    def push():
        for f, data in enumerate(frames):
            buf = Gst.Buffer.new_wrapped(data)
            buf.pts, buf.duration = int(f * frame_ns), int(frame_ns)
            if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
                return
        src.emit("end-of-stream")

    pusher = threading.Thread(target=push, daemon=True)
    pusher.start()
    _drain(bus, result, frame_ns, start + timeout)
    pipe.set_state(Gst.State.NULL)
    pusher.join(5)
    result.seconds = time.monotonic() - start
    return result


def _drain(bus, result: RunResult, frame_ns: float, deadline: float) -> None:
    """Bus messages into `result` until EOS, an error or `deadline`."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            result.error = result.error or "stalled: no EOS before the time limit"
            return
        msg = bus.timed_pop(int(min(left, 0.2) * Gst.SECOND))
        if msg is None:
            continue
        if msg.type == Gst.MessageType.EOS:
            return
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            result.error = f"{err.message} ({dbg})"
            return
        if msg.type == Gst.MessageType.ELEMENT:
            _collect(msg, result, frame_ns)


def run_live(scene: Scene, frames: list[bytes], desc: str, seconds: float) -> RunResult:
    """`frames` cycled from a live source at the scene's rate for `seconds`."""
    pipe = Gst.parse_launch(
        f"appsrc name=src format=time is-live=true block=false min-latency={int(Gst.SECOND / scene.fps)} "
        f"max-buffers=2 leaky-type=downstream caps={_caps(scene)} "
        f"! {desc} name=under ! fakesink name=sink sync=true qos=true signal-handoffs=true")
    src, bus, result = pipe.get_by_name("src"), pipe.get_bus(), RunResult()
    sink_times: list[float] = []
    pipe.get_by_name("sink").connect("handoff", lambda *a: sink_times.append(time.monotonic()))
    counted = [0]

    def probe(pad, info):
        counted[0] += 1
        return Gst.PadProbeReturn.OK

    pipe.get_by_name("under").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, probe)
    frame_ns = Gst.SECOND / scene.fps
    pipe.set_state(Gst.State.PLAYING)
    pipe.get_state(5 * Gst.SECOND)
    clock, base = pipe.get_clock(), pipe.get_base_time()
    buffers = [Gst.Buffer.new_wrapped(d) for d in frames]
    start = time.monotonic()
    n = int(seconds * scene.fps)
    for i in range(n):
        wait = start + i / scene.fps - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        buf = buffers[i % len(buffers)].copy()
        buf.pts = max(0, clock.get_time() - base - int(frame_ns))  # the time its frame began
        buf.duration = int(frame_ns)
        src.emit("push-buffer", buf)
        while (msg := bus.pop()) is not None:
            if msg.type == Gst.MessageType.ELEMENT:
                _collect(msg, result, frame_ns)
    end = start + n / scene.fps
    result.pushed, result.sink_window = n, end - start
    result.at_sink = sum(1 for t in sink_times if t <= end)
    result.into_element = counted[0]
    src.emit("end-of-stream")
    _drain(bus, result, frame_ns, time.monotonic() + 30)
    pipe.set_state(Gst.State.NULL)
    result.read_frames = len({r.ts for r in result.reports})
    result.seconds = time.monotonic() - start
    return result


def render(scene: Scene) -> tuple[list[bytes], list[list[Truth]]]:
    """The scene's frames as I420 and their ground truth."""
    frames, truths = [], []
    for f in range(scene.frames):
        grey, truth = scene.render(f)
        frames.append(i420(grey))
        truths.append(truth)
    return frames, truths
