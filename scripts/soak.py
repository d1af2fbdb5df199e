#!/usr/bin/env python3
# Runs rlbarcode in a real-time pipeline for a given time and reports the
# resident memory (RSS) of the process over time.
#
# The video (default: the demo clip) is decoded, scaled to the given size and
# frame rate and played in a loop (segment seeks, no gap) into
#   rlbarcode ! fakesink sync=true
# so the element sees SIZE frames at FPS for MINUTES, as from a camera.
# Every INTERVAL seconds a line gives the time, the frames seen, the codes
# reported and the RSS. The last line sums it up:
#   SOAK minutes=60.0 frames=108000 fps=30.0 codes=1234 rss_after_1min=... rss_end=... growth_kb=...
# and the exit status is 1 when the RSS grew by more than --max-growth-kb
# after the first minute (or the pipeline failed or fell behind), else 0.
#
# Usage: scripts/soak.py [--minutes 60] [--size 1920x1080] [--fps 30]
#                        [--interval 10] [--props "report=every-frame draw=true"]
#                        [--plugin-path DIR] [VIDEO]
import argparse
import os
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def rss_kb():
    """The resident set size of this process, in kB (VmRSS)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description="rlbarcode in a real-time loop, RSS over time")
    p.add_argument("video", nargs="?", default=os.path.join(root, "pipelines", "media", "demo.mp4"))
    p.add_argument("--minutes", type=float, default=60.0, help="how long to run (default 60)")
    p.add_argument("--size", default="1920x1080", help="frame size (default 1920x1080)")
    p.add_argument("--fps", type=int, default=30, help="frame rate (default 30)")
    p.add_argument("--interval", type=float, default=10.0, help="seconds between RSS lines (default 10)")
    p.add_argument("--props", default="", help="rlbarcode properties, as on a gst-launch line")
    p.add_argument("--plugin-path", default=None, help="folder with libgstrlbarcode.so (else GST_PLUGIN_PATH)")
    p.add_argument("--max-growth-kb", type=int, default=1024,
                   help="allowed RSS growth after the first minute (default 1024)")
    a = p.parse_args()
    if a.plugin_path:
        os.environ["GST_PLUGIN_PATH"] = a.plugin_path
    Gst.init(None)
    if Gst.ElementFactory.find("rlbarcode") is None:
        print("soak: the rlbarcode element is not found (set --plugin-path)", file=sys.stderr)
        return 2
    if not os.path.exists(a.video):
        print("soak: no such video: %s" % a.video, file=sys.stderr)
        return 2
    try:
        w, h = (int(x) for x in a.size.split("x"))
    except ValueError:
        print("soak: --size is WIDTHxHEIGHT, not %r" % a.size, file=sys.stderr)
        return 2

    pipeline = Gst.parse_launch(
        "filesrc location=\"%s\" ! decodebin ! videoconvert ! videoscale add-borders=true ! videorate ! "
        "video/x-raw,format=NV12,width=%d,height=%d,framerate=%d/1,pixel-aspect-ratio=1/1 ! "
        "rlbarcode name=bc %s ! fakesink name=sink sync=true qos=true" % (a.video, w, h, a.fps, a.props))
    frames = [0]

    def on_frame(pad, info):
        frames[0] += 1
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name("bc").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_frame)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PAUSED)
    if pipeline.get_state(30 * Gst.SECOND)[0] == Gst.StateChangeReturn.FAILURE:
        print("soak: the pipeline does not start", file=sys.stderr)
        return 2
    # Segment seeks: the clip loops without EOS; each SEGMENT_DONE starts it again.
    pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.SEGMENT, 0)
    pipeline.set_state(Gst.State.PLAYING)

    start = time.monotonic()
    end = start + a.minutes * 60
    next_line = start + a.interval
    codes = 0
    rss_1min = None
    failed = None
    print("seconds\tframes\tcodes\trss_kb", flush=True)
    while time.monotonic() < end:
        msg = bus.timed_pop(int(0.2 * Gst.SECOND))
        if msg is not None:
            if msg.type == Gst.MessageType.ELEMENT:
                s = msg.get_structure()
                if s is not None and s.get_name() == "barcode":
                    codes += 1
            elif msg.type == Gst.MessageType.SEGMENT_DONE:
                pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.SEGMENT, 0)
            elif msg.type in (Gst.MessageType.ERROR, Gst.MessageType.EOS):
                err = msg.parse_error()[0].message if msg.type == Gst.MessageType.ERROR else "unexpected EOS"
                failed = err
                break
        now = time.monotonic()
        if rss_1min is None and now - start >= 60:
            rss_1min = rss_kb()
        if now >= next_line:
            print("%.0f\t%d\t%d\t%d" % (now - start, frames[0], codes, rss_kb()), flush=True)
            next_line += a.interval
    elapsed = time.monotonic() - start
    rss_end = rss_kb()
    pipeline.set_state(Gst.State.NULL)
    base = rss_1min if rss_1min is not None else rss_end
    growth = rss_end - base
    fps = frames[0] / elapsed if elapsed > 0 else 0
    print("SOAK minutes=%.1f frames=%d fps=%.1f codes=%d rss_after_1min=%s rss_end=%d growth_kb=%d"
          % (elapsed / 60, frames[0], fps, codes, "-" if rss_1min is None else rss_1min, rss_end, growth))
    if failed:
        print("soak: the pipeline failed: %s" % failed, file=sys.stderr)
        return 1
    if fps < a.fps * 0.95:
        print("soak: %.1f fps, below %d" % (fps, a.fps), file=sys.stderr)
        return 1
    if rss_1min is not None and growth > a.max_growth_kb:
        print("soak: the RSS grew by %d kB after the first minute" % growth, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
