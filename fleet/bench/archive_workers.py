#!/usr/bin/python3
"""rlbarcode-archive on generated video files with 1 and 2 local workers, and with a worker killed.

Usage: fleet/bench/archive_workers.py [--files 200] [--size 640x360] [--frames-per-code 45]
Each file is a Motion JPEG AVI of --size showing two Code 128 symbols (2 px modules), each
for --frames-per-code frames (by default 3 s of video a file). Prints the seconds of each
run, whether the merged results are identical, and whether the run with a killed worker
has every code of every file once (JSON). Timings are wall-clock.
"""
import argparse
import collections
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "tests"))
import support  # noqa: E402


def _run(video, out, workers):
    start = time.monotonic()
    job = support.start_archive(video, "--out", out, "--local", str(workers))
    _, err = job.communicate()
    return time.monotonic() - start, job.returncode, err.strip().splitlines()[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--size", default="640x360")
    ap.add_argument("--frames-per-code", type=int, default=45)
    args = ap.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    if support.plugin_dir() is None:
        sys.exit("archive_workers.py: libgstrlbarcode.so not found (set RLBARCODE_RELEASE_BIN)")
    with tempfile.TemporaryDirectory() as tmp:
        video = os.path.join(tmp, "video")
        made = time.monotonic()
        paths = support.write_archive_files(video, args.files, args.frames_per_code, size, scale=2)
        print(f"{args.files} files made in {time.monotonic() - made:.0f} s", file=sys.stderr)
        expected = collections.Counter((str(p), t) for i, p in enumerate(paths) for t in support.archive_texts(i))
        fig = {"files": args.files, "size": args.size, "frames-per-file": 2 * args.frames_per_code}
        merged = {}
        for workers in (1, 2):
            out = os.path.join(tmp, f"out{workers}")
            seconds, status, summary = _run(video, out, workers)
            with open(os.path.join(out, "results.jsonl"), "rb") as f:
                merged[workers] = f.read()
            fig[f"workers-{workers}"] = {"seconds": round(seconds, 1), "exit": status, "summary": summary}
            print(json.dumps(fig[f"workers-{workers}"]), file=sys.stderr)
        fig["speed-up"] = round(fig["workers-1"]["seconds"] / fig["workers-2"]["seconds"], 2)
        fig["identical"] = merged[1] == merged[2]
        got = collections.Counter((r["file"], r["text"]) for r in support.read_jsonl(os.path.join(tmp, "out1",
                                                                                                   "results.jsonl")))
        fig["complete"] = got == expected
        out = os.path.join(tmp, "killed")
        status, err, pid, before = support.archive_with_killed_worker(video, out, after_parts=20)
        got = collections.Counter((r["file"], r["text"]) for r in support.read_jsonl(os.path.join(out,
                                                                                                  "results.jsonl")))
        fig["killed-worker"] = {"exit": status, "parts-before-kill": before, "complete-and-unique": got == expected,
                                "repeated": sum(n - 1 for n in got.values()), "summary": err.strip().splitlines()[-1]}
    print(json.dumps(fig, indent=1))


if __name__ == "__main__":
    main()
