#!/usr/bin/python3
"""Counts what an independent subscriber receives from rlbarcode-fleet across broker restarts.

Usage: fleet/bench/broker_restarts.py [--cameras 5] [--codes 2000] [--framerate 100/1] [--restarts 2]
Prints the journalled, received, lost and repeated messages (JSON). Uses the plugin of
RLBARCODE_RELEASE_BIN or .build/release, a mosquitto on a free loopback port, a temp folder.
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tests"))
import support  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cameras", type=int, default=5)
    ap.add_argument("--codes", type=int, default=2000, help="codes per camera (one per frame)")
    ap.add_argument("--framerate", default="100/1")
    ap.add_argument("--restarts", type=int, default=2)
    args = ap.parse_args()
    if support.plugin_dir() is None:
        sys.exit("broker_restarts.py: libgstrlbarcode.so not found (set RLBARCODE_RELEASE_BIN)")
    with tempfile.TemporaryDirectory() as tmp:
        broker = support.Broker(os.path.join(tmp, "broker"))
        broker.start()
        try:
            run = support.run_through_restarts(tmp, broker, args.cameras, args.codes, args.framerate,
                                               args.restarts)
        finally:
            broker.stop()
    fig = support.delivery_figures(run)
    expected = sorted(support.code_texts(args.codes))
    fig["cameras-complete"] = sum(sorted(t) == expected for t in fig.pop("texts").values())
    fig.update({"exit": run["status"], "seconds": round(run["seconds"], 1),
                "broker-losses": run["stderr"].count("lost the broker"), "dup-flagged": run["redelivered"],
                "camera-restarts": run["stderr"].count("restarting in")})
    if fig["camera-restarts"]:
        print(run["stderr"], file=sys.stderr)
    print(json.dumps(fig, indent=1))


if __name__ == "__main__":
    main()
