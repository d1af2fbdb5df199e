#!/usr/bin/env python3
"""Memory of the element with attached frames and a slow bus reader.

Runs `gst-launch-1.0 -m` on a live-paced 1080p NV12 stream that shows an
EAN-13 in every frame, with `attach-frame=true report=every-frame`, so
that every frame posts a message carrying its frame. gst-launch prints
each message (the frame as text, megabytes each) on its standard output,
which this script reads at a limited rate: the bus is read, but slowly,
as a terminal would. The resident memory of gst-launch is sampled every
few seconds; the table shows it over time, and the last line the spread
after the first sample (the steady state) against the element's bound.

    python3 scripts/measure_slow_bus.py --plugin-path .build/release --seconds 300

Needs zint, gst-launch-1.0 and the built plugin.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin-path", default=".build/release")
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--every", type=float, default=10, help="seconds between memory samples (default 10)")
    ap.add_argument("--rate", type=float, default=2e6,
                    help="bytes a second read from gst-launch's output (default 2e6)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "ean13.png")
        subprocess.run(["zint", "-b", "13", "-d", "590123412345", "--scale", "4", "-o", png], check=True,
                       stdout=subprocess.DEVNULL)
        pipeline = (
            f"filesrc location={png} ! pngdec ! videoconvert ! videoscale ! "
            "video/x-raw,format=NV12,width=1920,height=1080 ! imagefreeze ! video/x-raw,framerate=30/1 ! "
            "rlbarcode attach-frame=true report=every-frame ! fakesink sync=true")
        env = dict(os.environ, GST_PLUGIN_PATH=os.path.abspath(args.plugin_path))
        proc = subprocess.Popen(["gst-launch-1.0", "-m"] + pipeline.split(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        read = [0]
        stop = threading.Event()

        def reader():
            # A slow reader: at most `rate` bytes a second.
            chunk = 65536
            while not stop.is_set():
                t0 = time.monotonic()
                data = proc.stdout.read(chunk)
                if not data:
                    return
                read[0] += len(data)
                wait = len(data) / args.rate - (time.monotonic() - t0)
                if wait > 0:
                    time.sleep(wait)

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        start = time.monotonic()
        samples = []
        print("| seconds | RSS MB | output read MB |")
        print("|---|---|---|")
        try:
            while time.monotonic() - start < args.seconds:
                time.sleep(args.every)
                if proc.poll() is not None:
                    print(f"gst-launch-1.0 ended early (exit {proc.returncode})", file=sys.stderr)
                    return 1
                m = rss_mb(proc.pid)
                t = time.monotonic() - start
                samples.append((t, m))
                print(f"| {t:.0f} | {m:.0f} | {read[0] / 1e6:.0f} |", flush=True)
        finally:
            stop.set()
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        steady = [m for _, m in samples[1:] if m is not None]
        if steady:
            print(f"after the first sample: RSS {min(steady):.0f} to {max(steady):.0f} MB "
                  f"(spread {max(steady) - min(steady):.0f} MB); {read[0] / 1e6:.0f} MB of messages read "
                  f"in {args.seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
