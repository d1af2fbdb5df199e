#!/usr/bin/python3
"""A live source into a syncing sink that sends no QoS events.

`videotestsrc is-live=true pattern=P ! NV12 WxH at 30/1 ! rlbarcode
effort=E ! fakesink sync=true qos=false` for `--seconds`, each effort:
frames that reached the sink against the frames a real-time source makes
in that time, the frames that arrived after they were due (a pad probe
on the sink: clock time against base time + running time + the pipeline's
latency), the worst lateness, and the element's own counters
(`frames-analysed`, `frames-skipped`). The source alone, through
`identity`, is the first row. See docs/ELEMENT-LIMITS.md.

    /usr/bin/python3 scripts/measure_live_pacing.py --plugin-path .build/release
"""

import argparse
import os
import sys
import time


def run(Gst, element, args):
    desc = (
        f"videotestsrc is-live=true pattern={args.pattern} "
        f"! video/x-raw,format=NV12,width={args.width},height={args.height},framerate=30/1 "
        f"! {element} name=e ! fakesink name=sink sync=true qos=false"
    )
    pipe = Gst.parse_launch(desc)
    sink = pipe.get_by_name("sink")
    seen = {"frames": 0, "late": 0, "worst": 0.0}

    def probe(pad, info):
        buf = info.get_buffer()
        seen["frames"] += 1
        clock = pipe.get_clock()
        if clock is None:
            return Gst.PadProbeReturn.OK
        seg = pad.get_sticky_event(Gst.EventType.SEGMENT, 0)
        if seg is None:
            return Gst.PadProbeReturn.OK
        running = seg.parse_segment().to_running_time(Gst.Format.TIME, buf.pts)
        due = pipe.get_base_time() + running + pipe.get_latency()
        late_ms = (clock.get_time() - due) / 1e6
        if late_ms > 0:
            seen["late"] += 1
            seen["worst"] = max(seen["worst"], late_ms)
        return Gst.PadProbeReturn.OK

    sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, probe)
    pipe.set_state(Gst.State.PLAYING)
    started = time.monotonic()
    time.sleep(args.seconds)
    elapsed = time.monotonic() - started
    e = pipe.get_by_name("e")
    counters = ""
    if e.find_property("frames-analysed") is not None:
        counters = f"analysed {e.get_property('frames-analysed')} skipped {e.get_property('frames-skipped')}"
    pipe.set_state(Gst.State.NULL)
    expected = int(elapsed * 30)
    return seen, expected, counters


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin-path", default=".build/release")
    ap.add_argument("--efforts", default="fast,balanced,thorough")
    ap.add_argument("--pattern", default="checkers-2", help="videotestsrc pattern (default checkers-2)")
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin_path)
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import Gst

    Gst.init(None)
    rows = [("identity", "identity")] + [(f"rlbarcode effort={e}", f"rlbarcode effort={e}") for e in args.efforts.split(",")]
    print(f"| element | frames at the sink / made | share of real time | late | worst late (ms) | counters |")
    print("|---|---|---|---|---|---|")
    for name, element in rows:
        seen, expected, counters = run(Gst, element, args)
        share = 100.0 * seen["frames"] / max(1, expected)
        print(f"| {name} | {seen['frames']} / {expected} | {share:.1f} % | {seen['late']} | {seen['worst']:.0f} | {counters} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
