#!/usr/bin/python3
# Times rlbarcode against the zbar and zxing elements on the same raw frames,
# at 1920x1080 and 1280x720, in one run, and prints for each element and size
# the frames per second, the milliseconds per frame (median and 99th
# percentile, from the element's sink pad to its source pad) and how many
# frames it found a code in.
#
# Usage: pipelines/bench.py [VIDEO] [--sizes 1920x1080,1280x720] [--frames N]
#                           [--rounds R] [--elements rlbarcode,zbar,zxing]
#   VIDEO defaults to pipelines/media/demo.mp4. Its first N frames (default
#   300) are decoded once, scaled to each size and kept as raw I420 clips in
#   a temporary folder; every element then reads the same clip through
#   filesrc ! rawvideoparse ! ELEMENT ! fakesink sync=false.
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release).
# Needs python3-gi and python3-gst-1.0 (bash scripts/setup.sh installs them).
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("GST_PLUGIN_PATH", os.path.join(ROOT, ".build", "release"))

import gi  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

# Properties that make each element report every frame's codes, so that
# found frames can be counted the same way for all three.
REPORT_EVERY_FRAME = {"rlbarcode": "report=every-frame", "zbar": "", "zxing": ""}


def make_clip(video, size, frames, folder):
    """Decodes the first `frames` frames of `video`, scaled to `size`, into a raw I420 file."""
    w, h = size
    path = os.path.join(folder, "clip-%dx%d.i420" % (w, h))
    # identity ends the stream after about `frames` buffers (one more may
    # pass before the EOS, depending on timing); the file is then cut to
    # exactly `frames` frames, or fewer when the video is shorter.
    pipeline = ("filesrc location=%s ! decodebin ! videoconvert ! videoscale add-borders=true ! "
                "video/x-raw,format=I420,width=%d,height=%d,pixel-aspect-ratio=1/1 ! "
                "identity eos-after=%d ! filesink location=%s") % (video, w, h, frames + 1, path)
    subprocess.run(["gst-launch-1.0", "-q"] + pipeline.split(), check=True)
    frame_bytes = w * h * 3 // 2
    count = min(frames, os.path.getsize(path) // frame_bytes)
    os.truncate(path, count * frame_bytes)
    return path, count


def run(element, clip, size, count):
    """One run: (fps, per-frame milliseconds, frames with a code), or None if the element is missing."""
    if Gst.ElementFactory.find(element) is None:
        return None
    w, h = size
    props = REPORT_EVERY_FRAME.get(element, "")
    pipeline = Gst.parse_launch(
        "filesrc location=%s ! rawvideoparse format=i420 width=%d height=%d framerate=30/1 ! "
        "%s name=under-test %s ! fakesink sync=false" % (clip, w, h, element, props))
    under = pipeline.get_by_name("under-test")
    started = {}
    times = []

    def on_sink(pad, info):
        started[info.get_buffer().pts] = time.perf_counter()
        return Gst.PadProbeReturn.OK

    def on_src(pad, info):
        t0 = started.pop(info.get_buffer().pts, None)
        if t0 is not None:
            times.append((time.perf_counter() - t0) * 1000)
        return Gst.PadProbeReturn.OK

    under.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_sink)
    under.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_src)
    found = set()
    bus = pipeline.get_bus()
    t0 = time.perf_counter()
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        msg = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
                                     | Gst.MessageType.ERROR)
        if msg is None or msg.type != Gst.MessageType.ELEMENT:
            break
        s = msg.get_structure()
        if s is not None and s.get_name() == "barcode":
            ok, ts = s.get_uint64("timestamp")
            found.add(ts if ok else len(found))
    elapsed = time.perf_counter() - t0
    error = msg is not None and msg.type == Gst.MessageType.ERROR
    pipeline.set_state(Gst.State.NULL)
    if error or not times:
        raise RuntimeError("%s failed on %s" % (element, clip))
    return count / elapsed, times, len(found)


def main():
    p = argparse.ArgumentParser(description="rlbarcode, zbar and zxing on the same raw frames")
    p.add_argument("video", nargs="?", default=os.path.join(ROOT, "pipelines", "media", "demo.mp4"))
    p.add_argument("--sizes", default="1920x1080,1280x720")
    p.add_argument("--frames", type=int, default=300, help="frames to use (2 or more)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--elements", default="rlbarcode,zbar,zxing")
    a = p.parse_args()
    Gst.init(None)
    sizes = [tuple(int(v) for v in s.split("x")) for s in a.sizes.split(",")]
    elements = a.elements.split(",")
    print("# machine: %s, %d CPUs; GStreamer %s" % (os.uname().machine, os.cpu_count(), Gst.version_string()))
    print("element\tsize\tfps\tmedian_ms\tp99_ms\tframes_found\tframes")
    with tempfile.TemporaryDirectory(prefix="rlbarcode-bench-") as folder:
        for size in sizes:
            clip, count = make_clip(a.video, size, a.frames, folder)
            results = {e: [] for e in elements}
            for _ in range(a.rounds):
                for e in elements:  # in turn, so that a busy moment hits all
                    r = run(e, clip, size, count)
                    if r is not None:
                        results[e].append(r)
            for e in elements:
                if not results[e]:
                    print("%s\t%dx%d\tmissing" % (e, size[0], size[1]))
                    continue
                fps = statistics.median(r[0] for r in results[e])
                times = sorted(t for r in results[e] for t in r[1])
                p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
                found = max(r[2] for r in results[e])
                print("%s\t%dx%d\t%.1f\t%.2f\t%.2f\t%d\t%d" % (e, size[0], size[1], fps, statistics.median(times),
                                                             p99, found, count))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
