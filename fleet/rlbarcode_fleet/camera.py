"""One camera's pipeline: built from its configuration, restarted with back-off when it fails."""

import sys
import time

from .gstinit import GLib, GObject, Gst
from .gstvalues import structure_to_dict

MESSAGES = ("barcode", "barcode-status", "barcode-session")
_LIVE_QUEUE = "queue name=livequeue leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0"


def source_description(cam):
    """The gst-launch description of a camera's source, up to its raw video."""
    o = cam.options
    if cam.type == "v4l2":
        caps = f" ! {o['caps']}" if "caps" in o else ""
        return f"v4l2src name=src{caps} ! decodebin"
    if cam.type == "rtsp":
        return f"rtspsrc name=src latency={int(o.get('latency', 200))} ! decodebin"
    if cam.type == "file":
        return "filesrc name=src ! decodebin"
    if cam.type == "raw":
        return (f"filesrc name=src ! rawvideoparse width={int(o['width'])} height={int(o['height'])} "
                f"format={o.get('format', 'nv12')} framerate={o.get('framerate', '30/1')}")
    if cam.type == "test":
        return (f"videotestsrc name=src is-live=true pattern={o.get('pattern', 'smpte')} ! "
                f"video/x-raw,width={int(o.get('width', 640))},height={int(o.get('height', 480))},"
                f"framerate={o.get('framerate', '30/1')}")
    return o["source"]


def pipeline_description(cam):
    """The whole pipeline of a camera: source, (a leaky queue for live ones), rlbarcode, sink.

    Only a live camera's sink reports late frames upstream (QoS), so that the element lets
    late frames pass unanalysed rather than fall behind; a recording is analysed frame by frame."""
    live = f" ! {_LIVE_QUEUE}" if cam.live else ""
    sync = "true" if cam.sync else "false"
    qos = "true" if cam.live and cam.sync else "false"
    return (f"{source_description(cam)} ! videoconvert{live} ! rlbarcode name=barcode ! "
            f"fakesink name=sink sync={sync} qos={qos} max-lateness=40000000")


def _set_source_location(cam, pipeline):
    src = pipeline.get_by_name("src")
    key = {"v4l2": "device", "rtsp": "url", "file": "path", "raw": "path"}.get(cam.type)
    if src is not None and key in cam.options:
        src.set_property("location" if cam.type != "v4l2" else "device", str(cam.options[key]))


def _deserialize(gtype, text):
    """Reads `text` as a value of `gtype` the way gst-launch does; (False, None) when it is not one."""
    if gtype == GObject.TYPE_STRING:
        return True, text
    try:
        parsed = Gst.Structure.from_string(f"v, x=({GObject.type_name(gtype)}){text}")[0]
    except TypeError:
        return False, None
    if parsed is None or not parsed.has_field_typed("x", gtype):
        return False, None
    return True, parsed.get_value("x")


def set_element_properties(element, props, where):
    """Sets rlbarcode properties from the configuration (strings as gst-launch takes them)."""
    for name, value in props.items():
        pspec = element.find_property(name)
        if pspec is None:
            raise ValueError(f"{where}: rlbarcode has no property {name!r}")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        ok, parsed = _deserialize(pspec.value_type, text)
        if not ok:
            raise ValueError(f"{where}: {text!r} is not a valid value of rlbarcode's {name!r}")
        element.set_property(name, parsed)


def build_pipeline(cam):
    """Builds (without starting) a camera's pipeline; ValueError names what is wrong."""
    try:
        pipeline = Gst.parse_launch(pipeline_description(cam))
    except GLib.Error as err:
        raise ValueError(f"camera {cam.name!r}: cannot build its pipeline: {err.message}") from None
    _set_source_location(cam, pipeline)
    set_element_properties(pipeline.get_by_name("barcode"), cam.element, f"camera {cam.name!r}")
    return pipeline


class Camera:
    """Runs one camera's pipeline on the GLib main loop and keeps its health figures.

    A pipeline that posts an error, or whose live source sends no frame for
    `stall_timeout` seconds or ends, is torn down and built again
    after a delay that doubles from `backoff_initial` to `backoff_max`; it
    starts again from `backoff_initial` once a run lasted `stable_after` seconds.
    A file camera with `loop` starts over at its end; otherwise it finishes.
    """

    def __init__(self, cam, service, deliver, on_finished):
        self.cam = cam
        self.service = service
        self.deliver = deliver
        self.on_finished = on_finished
        self.pipeline = None
        self.generation = 0
        self.failures = 0
        self.retry_source = None
        self.state = "starting"
        self.stopping = False
        self.frames = self.late = self.codes = self.restarts = self.loops = 0
        self.fps = 0.0
        self.last_error = ""
        self.started = self.last_frame = time.monotonic()
        self._fps_mark = (time.monotonic(), 0)

    # Running

    def start(self):
        """Builds and starts the pipeline; a failure to start counts as a failed run."""
        self.retry_source = None
        self.generation += 1
        gen = self.generation
        self.pipeline = build_pipeline(self.cam)
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self._on_message, gen)
        pad = self.pipeline.get_by_name("barcode").get_static_pad("src")
        pad.add_probe(Gst.PadProbeType.BUFFER, self._on_frame)
        queue = self.pipeline.get_by_name("livequeue")
        if queue is not None:
            queue.connect("overrun", self._on_overrun)
        self.started = self.last_frame = time.monotonic()
        self.state = "running"
        if self.pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            msg = bus.pop_filtered(Gst.MessageType.ERROR)
            why = f"{msg.src.get_name()}: {msg.parse_error()[0].message}" if msg else "it would not start"
            self._fail(why)
        return False

    def _on_frame(self, pad, info):
        self.frames += 1
        self.last_frame = time.monotonic()
        return Gst.PadProbeReturn.OK

    def _on_overrun(self, queue):
        self.late += 1

    def _on_message(self, bus, msg, gen):
        if gen != self.generation or self.pipeline is None:
            return
        t = msg.type
        if t == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s is not None and s.get_name() in MESSAGES and msg.src.get_name() == "barcode":
                self._deliver(s)
        elif t == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            self._fail(f"{msg.src.get_name()}: {err.message}")
        elif t == Gst.MessageType.WARNING:
            warn, _ = msg.parse_warning()
            print(f"rlbarcode-fleet: camera {self.cam.name}: {msg.src.get_name()}: {warn.message}",
                  file=sys.stderr)
        elif t == Gst.MessageType.QOS and msg.src.get_name() == "sink":
            self.late += 1
        elif t == Gst.MessageType.EOS:
            self._on_eos()

    def _deliver(self, s):
        kind = s.get_name()
        if kind == "barcode":
            self.codes += 1
        payload = {"camera": self.cam.name, "kind": kind, "wall-time": round(time.time(), 6)}
        payload.update(structure_to_dict(s))
        self.deliver(self.cam.name, kind, payload)

    def _on_eos(self):
        if self.stopping:
            self._teardown("stopped")
        elif self.cam.live:
            self._fail("the stream ended")
        elif self.cam.loop:
            self.loops += 1
            self._teardown("restarting")
            self.start()
        else:
            self._teardown("finished")

    # Failing and stopping

    def _teardown(self, state):
        self.generation += 1
        if self.pipeline is not None:
            self.pipeline.get_bus().remove_signal_watch()
            self.pipeline.set_state(Gst.State.NULL)
            self.pipeline = None
        self.state = state
        if state in ("finished", "stopped"):
            self.on_finished(self)

    def _fail(self, reason):
        ran = time.monotonic() - self.started
        if ran >= self.service.stable_after:
            self.failures = 0
        delay = min(self.service.backoff_initial * 2 ** self.failures, self.service.backoff_max)
        self.failures += 1
        self.restarts += 1
        reason = reason.rstrip(".")
        self.last_error = reason
        print(f"rlbarcode-fleet: camera {self.cam.name}: {reason}; restarting in {delay:g} s",
              file=sys.stderr)
        self._teardown("waiting")
        if self.stopping:
            self._teardown("stopped")
            return
        self.retry_source = GLib.timeout_add(int(delay * 1000), self.start)

    def tick(self):
        """Once a second: the frame rate, and the stall check."""
        now = time.monotonic()
        then, frames = self._fps_mark
        self.fps = (self.frames - frames) / max(now - then, 1e-3)
        self._fps_mark = (now, self.frames)
        # Only a live source can stall; a recording that is slow to analyse is just slow.
        stalled = now - self.last_frame > self.service.stall_timeout
        if self.cam.live and self.state == "running" and stalled:
            self._fail(f"no frame for {self.service.stall_timeout:g} s")

    def stop(self):
        """Ends the stream (the element posts its session), or stops at once when not running."""
        self.stopping = True
        if self.retry_source is not None:
            GLib.source_remove(self.retry_source)
            self.retry_source = None
        if self.pipeline is not None and self.state == "running":
            self.pipeline.send_event(Gst.Event.new_eos())
        elif self.state not in ("finished", "stopped"):
            self._teardown("stopped")

    def force_stop(self):
        """Stops without waiting for the end of the stream."""
        if self.state not in ("finished", "stopped"):
            self._teardown("stopped")

    def health(self):
        """The camera's figures for the health endpoint."""
        return {"state": self.state, "fps": round(self.fps, 2), "frames": self.frames,
                "late": self.late, "codes": self.codes, "restarts": self.restarts,
                "loops": self.loops, "last-error": self.last_error}
