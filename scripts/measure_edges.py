#!/usr/bin/python3
"""Reads generated linear symbols cut close to the picture's border.

For each linear symbology, narrow-bar width 1, 2, 3 px and margin 0, 1, 2,
4, 8 px on the left, the right or both sides (the other side keeps 12 narrow
bars of light), writes the picture, scans all of them with one rlbarcode-scan
call and prints a table: R read, - not read, X wrong text. Optionally the same
pictures through zbarimg and zxing-cpp, for comparison only.

  /usr/bin/python3 scripts/measure_edges.py --cli .build/release/rlbarcode-scan [--effort balanced]
      [--zbar] [--zxing /tmp/zx/bin/python]

--effort balanced scans at the effort the element uses in video frames.
"""
import argparse, json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

SYMBOLS = [  # name, zint number, data, CLI symbology, expected text
    ("code128", 20, "EDGE-128x", "Code-128", "EDGE-128x"),
    ("code39", 8, "EDGE39", "Code-39", "EDGE39"),
    ("code93", 25, "EDGE93", "Code-93", "EDGE93"),
    ("itf", 3, "12345678", "ITF", "12345678"),
    ("codabar", 18, "A123456B", "Codabar", None),
    ("ean13", 13, "590123412345", "EAN-13", "5901234123457"),
    ("ean8", 13, "9638507", "EAN-8", "96385074"),
    ("upca", 34, "03600029145", "UPC-A", None),
    ("upce", 37, "0123456", "UPC-E", None),
    ("databar", 29, "0950110153001", "DataBar", None),
    ("databar-ltd", 30, "1501234567890", "DataBar-Limited", None),
    ("databar-exp", 31, "[01]98898765432106[3202]012345", "DataBar-Expanded", None),
    ("databar-expstk", 81, "[01]98898765432106[3202]012345[15]991231", "DataBar-Expanded", None),
]
MARGINS = [0, 1, 2, 4, 8]
NARROW = [1, 2, 3]
SIDES = ["left", "right", "both"]


def symbol(zint_id, data, narrow, tmp, extra=()):
    out = os.path.join(tmp, "z.png")
    h = max(8, round(40 / narrow))
    subprocess.run(["zint", "-b", str(zint_id), "--scale=%g" % (narrow / 2), "-w", "0", "--vwhitesp=0",
                    "--notext", "--noquietzones", "--height=%d" % h, "-d", data, "-o", out, *extra],
                   check=True, capture_output=True)
    a = np.array(Image.open(out).convert("L"))
    dark = np.where((a < 128).any(axis=0))[0]
    rows = np.where((a < 128).any(axis=1))[0]
    return a[rows[0]:rows[-1] + 1, dark[0]:dark[-1] + 1]


def place(a, narrow, margin, side):
    quiet = 12 * narrow
    left = margin if side in ("left", "both") else quiet
    right = margin if side in ("right", "both") else quiet
    v = margin if side == "both" else 8
    h, w = a.shape
    out = np.full((h + 2 * v, w + left + right), 255, np.uint8)
    out[v:v + h, left:left + w] = a
    return out


def scan_cli(cli, paths, effort=None):
    res = {p: [] for p in paths}
    extra = ["--effort", effort] if effort else []
    for i in range(0, len(paths), 200):
        r = subprocess.run([cli, "--jsonl", *extra, *paths[i:i + 200]], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            try:
                j = json.loads(line)
            except ValueError:
                continue
            if "file" in j and "text" in j:
                res.setdefault(j["file"], []).append((j.get("symbology"), j["text"]))
    return res


def scan_zbar(paths):
    res = {}
    for p in paths:
        r = subprocess.run(["zbarimg", "-q", "--raw", p], capture_output=True, text=True)
        res[p] = [(None, t) for t in r.stdout.splitlines()]
    return res


def scan_zxing(py, paths):
    code = ("import sys, json, zxingcpp\nfrom PIL import Image\n"
            "for p in sys.argv[1:]:\n"
            "    rs = zxingcpp.read_barcodes(Image.open(p))\n"
            "    print(json.dumps([p, [r.text for r in rs]]))\n")
    r = subprocess.run([py, "-c", code, *paths], capture_output=True, text=True)
    res = {}
    for line in r.stdout.splitlines():
        p, texts = json.loads(line)
        res[p] = [(None, t) for t in texts]
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--effort", choices=["fast", "balanced", "thorough"])
    ap.add_argument("--zbar", action="store_true")
    ap.add_argument("--zxing")
    ap.add_argument("--only")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="edges-")
    jobs = []  # (name, narrow, side, margin, path, expected)
    refs = []
    for name, zid, data, sym, expected in SYMBOLS:
        if args.only and name not in args.only.split(","):
            continue
        for narrow in NARROW:
            a = symbol(zid, data, narrow, tmp)
            ref = os.path.join(tmp, "%s-%d-ref.png" % (name, narrow))
            Image.fromarray(place(a, narrow, 12 * narrow, "both")).save(ref)
            refs.append((name, narrow, ref, expected))
            for side in SIDES:
                for m in MARGINS:
                    p = os.path.join(tmp, "%s-%d-%s-%d.png" % (name, narrow, side, m))
                    Image.fromarray(place(a, narrow, m, side)).save(p)
                    jobs.append((name, narrow, side, m, p))
    paths = [r[2] for r in refs] + [j[4] for j in jobs]
    readers = [("rlbarcode", scan_cli(args.cli, paths, args.effort))]
    if args.zbar:
        readers.append(("zbar", scan_zbar(paths)))
    if args.zxing:
        readers.append(("zxing", scan_zxing(args.zxing, paths)))
    # Expected text: given, or what the reference (wide quiet zones) reads as.
    expect = {}
    for name, narrow, ref, expected in refs:
        if expected is None:
            texts = [t for _, t in readers[0][1].get(ref, [])]
            expected = texts[0] if texts else None
        expect[(name, narrow)] = expected
    totals = {}
    for rname, res in readers:
        print("== %s (R read, - not read, X wrong text; margins %s px)" % (rname, ",".join(map(str, MARGINS))))
        print("%-15s %6s  %-7s %-7s %-7s" % ("symbology", "narrow", *SIDES))
        ok = wrong = 0
        for name, *_ in SYMBOLS:
            for narrow in NARROW:
                if (name, narrow) not in expect:
                    continue
                e = expect[(name, narrow)]
                cells = []
                for side in SIDES:
                    s = ""
                    for m in MARGINS:
                        p = os.path.join(tmp, "%s-%d-%s-%d.png" % (name, narrow, side, m))
                        texts = [t for _, t in res.get(p, [])]
                        if e is not None and e in texts:
                            s += "R"; ok += 1
                        elif texts:
                            s += "X"; wrong += 1
                        else:
                            s += "-"
                    cells.append(s)
                ref_ok = e is not None and e in [t for _, t in res.get(os.path.join(tmp, "%s-%d-ref.png" % (name, narrow)), [])]
                print("%-15s %6d  %-7s %-7s %-7s%s" % (name, narrow, *cells, "" if ref_ok else "  (reference not read)"))
        print("read %d of %d, wrong %d" % (ok, len(jobs), wrong))
        totals[rname] = (ok, wrong)


if __name__ == "__main__":
    main()
