#!/usr/bin/env python3
"""Writes seed inputs for the rlbarcode-fuzz targets into OUTDIR/<target>/.

Module matrices, linear rows and small pictures come from `zint --dump`
(symbols made at fuzz time, nothing stored); bit streams and codewords are
built here by the rules of each standard. The input formats are those of
Sources/RLBarcodeFuzzing/FuzzEntryPoints.swift.

Usage: fuzz-seeds.py OUTDIR
"""
import os
import shutil
import subprocess
import sys


def zint_rows(symbology, data, args=()):
    """The rows of a zint --dump as lists of 0/1, or None without zint."""
    if shutil.which("zint") is None:
        return None
    p = subprocess.run(["zint", "-b", str(symbology), *args, "-d", data, "--dump"],
                       capture_output=True, text=True)
    if p.returncode >= 5 or not p.stdout.strip():
        return None
    rows = []
    for line in p.stdout.splitlines():
        bits = []
        for ch in line:
            if ch in "0123456789ABCDEFabcdef":
                v = int(ch, 16)
                bits += [v >> k & 1 for k in (3, 2, 1, 0)]
        if bits:
            rows.append(bits)
    return rows


def matrix_seed(rows, width, flags=1):
    """[width, height, flags, modules as bits, most significant first]."""
    bits = [b for row in rows for b in row[:width]]
    out = bytearray([width, len(rows), flags])
    for i in range(0, len(bits), 8):
        chunk = bits[i:i + 8] + [0] * (8 - len(bits[i:i + 8]))
        out.append(sum(b << (7 - k) for k, b in enumerate(chunk)))
    return bytes(out)


def square(rows):
    return matrix_seed(rows, len(rows)) if rows else None


def datamatrix(rows):
    if not rows:
        return None
    bottom = rows[-1]
    width = bottom.index(0) if 0 in bottom else len(bottom)
    return matrix_seed(rows, width)


def runs(modules):
    """Run lengths of a module row, starting with a light run."""
    out, cur, n = [], 0, 0
    for m in modules:
        if m == cur:
            n += 1
        else:
            out.append(n)
            cur, n = m, 1
    out.append(n)
    return out


def linear_seed(rows, unit=2):
    """[flags: both ends on the frame's border, widths - 1]."""
    modules = list(rows[0])
    while modules and modules[-1] == 0:
        modules.pop()
    widths = [20] + runs(modules)[1:] + [20]
    return bytes([6] + [min(255, w * unit) - 1 for w in widths])


def picture_seed(rows, unit=2, quiet=4, bar_height=None):
    """[width - 1, height - 1, stride padding, flags (thorough), luma]."""
    if bar_height is not None:
        rows = [rows[0]] * bar_height
    w = (len(rows[0]) + 2 * quiet) * unit
    h = (len(rows) + 2 * quiet) * unit
    if w > 256 or h > 256:
        return None
    pix = bytearray([235]) * (w * h)
    for y, row in enumerate(rows):
        for x, m in enumerate(row):
            if m:
                for dy in range(unit):
                    base = ((y + quiet) * unit + dy) * w + (x + quiet) * unit
                    pix[base:base + unit] = bytes([25]) * unit
    return bytes([w - 1, h - 1, 0, 2]) + bytes(pix)


def video_seed(width, height, rows, scale, effort=1, threads=2, limit=95, flags=0, symbologies=(1 << 17) - 1):
    """A scanner-video input (Sources/rlbarcode-fuzz/ScannerVideoTarget.swift):
    a frame of width x height tiled with `rows` (0/1 modules, dark 1) at
    `scale` pixels a module, with a quiet zone of four modules."""
    w = len(rows[0]) + 8
    pattern = bytearray([235]) * (w * (len(rows) + 8))
    for y, row in enumerate(rows):
        for x, m in enumerate(row):
            if m:
                pattern[(y + 4) * w + x + 4] = 25
    head = bytes([(width - 1) >> 8, (width - 1) & 255, (height - 1) >> 8, (height - 1) & 255, 16,
                  effort | (4 if threads == 2 else 0), flags, 40, 40, 120, 120,
                  symbologies & 255, symbologies >> 8 & 255, symbologies >> 16 & 255, 0, 7, limit,
                  scale - 1, w - 1])
    return head + bytes(pattern)


def element_seed(rows, fmt=4, width=160, height=120, frames=3, props=(), ops=(0, 1)):
    """An element-frames / element-props program (Sources/rlbarcode-fuzz-element):
    caps of `fmt` (index in Caps.formats), then `frames` buffers tiled with
    one row of `rows` (bars), some with a padded meta; `props` are
    (operation, bytes) pairs run first; `ops` the indices of the caps and
    buffer operations in the target's table."""
    out = bytearray()
    for op, data in props:
        out += bytes([op]) + bytes(data)
    out += bytes([ops[0], fmt, 0, width >> 8, width & 255, height >> 8, height & 255, 0, 0])
    row = [235] * 8 + [25 if m else 235 for m in rows[0]] + [235] * 8
    row = row[::max(1, len(row) // 64)][:64]
    for i in range(frames):
        out += bytes([ops[1], 1 if i % 2 else 0, 0]) + (bytes([8, 2]) if i % 2 else b"")
        out += bytes([191 + min(64, len(row))]) + bytes(row[:64]) + bytes([128])
    return bytes(out)


def bits_to_bytes(bits):
    bits = bits + [0] * (-len(bits) % 8)
    return bytes(sum(bits[i + k] << (7 - k) for k in range(8)) for i in range(0, len(bits), 8))


def bits(value, n):
    return [value >> (n - 1 - k) & 1 for k in range(n)]


def qr_bitstreams():
    """[version, data code words] for version 1: numeric, alphanumeric, byte, ECI, FNC1, Kanji."""
    alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
    seeds = []
    s = bits(1, 4) + bits(8, 10) + bits(12, 10) + bits(345, 10) + bits(67, 7) + bits(0, 4)
    seeds.append(s)
    s = bits(2, 4) + bits(5, 9)
    for a, b in [("H", "E"), ("L", "L")]:
        s += bits(alnum.index(a) * 45 + alnum.index(b), 11)
    s += bits(alnum.index("O"), 6) + bits(0, 4)
    seeds.append(s)
    s = bits(4, 4) + bits(5, 8) + [b for c in b"Hello" for b in bits(c, 8)] + bits(0, 4)
    seeds.append(s)
    s = bits(7, 4) + bits(26, 8) + bits(4, 4) + bits(2, 8) + bits(0xC3, 8) + bits(0xA9, 8) + bits(0, 4)
    seeds.append(s)
    s = bits(5, 4) + bits(1, 4) + bits(16, 10) + bits(10, 10) + bits(345, 10) + bits(6, 4) + bits(0, 4)
    seeds.append(s)
    s = bits(8, 4) + bits(1, 8) + bits(0x0D5F, 13) + bits(0, 4)
    seeds.append(s)
    s = bits(3, 4) + bits(0, 4) + bits(3, 4) + bits(0x5A, 8) + bits(4, 4) + bits(1, 8) + bits(65, 8) + bits(0, 4)
    seeds.append(s)
    out = [bytes([1]) + bits_to_bytes(s) + bytes([0xEC, 0x11]) for s in seeds]
    # Micro QR M2: numeric mode (1 bit 0), 4-bit count.
    out.append(bytes([0x81]) + bits_to_bytes([0] + bits(3, 4) + bits(123, 10) + [0] * 5))
    return out


def dm_bitstreams():
    ascii_hello = [c + 1 for c in b"HELLO"]
    return [bytes(ascii_hello + [129]),
            bytes([130 + 12, 130 + 34, 235, 0x41, 129]),
            bytes([232] + [130 + 1, 130 + 23] + [33, 52] + [129]),
            bytes([230, 91, 11, 254, 66]),
            bytes([239, 91, 11, 254, 66]),
            bytes([238, 89, 191, 254]),
            bytes([240, 16, 21, 1, 124]),
            bytes([231, 44, 0x6A, 0x2C, 0xC1]),
            bytes([241, 27, 73, 74, 129]),
            bytes([233, 0x21, 1, 5, 73, 74]),
            bytes([236, 50, 51]), bytes([234, 73])]


def aztec_bitstreams():
    # Upper mode 5-bit codes: "HELLO" then B/S + one byte, then D/L digits.
    s = []
    for c in "HELLO":
        s += bits(ord(c) - 64 + 1, 5)
    s += bits(31, 5) + bits(1, 5) + bits(0xE9, 8)
    s += bits(30, 5) + bits(2, 4) + bits(3, 4) + bits(1, 4)
    s2 = bits(0, 5) + bits(0, 5) + bits(0, 3) + bits(26, 8)  # P/S FLG(n) ECI 26
    s2 += bits(28, 5) + bits(2, 5) + bits(29, 5) + bits(6, 5)  # L/L a, M/L, ...
    return [bytes([1, 0, 0, 0, 0, 0]) + bits_to_bytes(s),
            bytes([0, 0, 0, 0, 0, 0]) + bits_to_bytes(s2)]


def pdf417_check(data, level, k=None):
    """The 2^(level+1) check codewords of `data` (ISO/IEC 15438, 5.7), or
    `k` of them (MicroPDF417, ISO/IEC 24728, 5.7)."""
    k = k or 2 << level
    g = [1]
    for i in range(1, k + 1):
        r = pow(3, i, 929)
        ng = g + [0]
        for j in range(len(g)):
            ng[j + 1] = (ng[j + 1] - g[j] * r) % 929
        g = ng
    work = list(data) + [0] * k
    for i in range(len(data)):
        c = work[i]
        if c:
            for j in range(1, k + 1):
                work[i + j] = (work[i + j] - c * g[j]) % 929
    return [(-r) % 929 for r in work[len(data):]]


def pdf417_datas():
    def text(s):
        vals = [ord(c) - 65 if c != " " else 26 for c in s]
        if len(vals) % 2:
            vals.append(29)
        return [vals[i] * 30 + vals[i + 1] for i in range(0, len(vals), 2)]
    datas = [[900] + text("HELLO WORLD"),
             [901, 65, 66, 67],
             [924, 1, 2, 3, 4, 5],
             [902, 1, 624, 434, 632, 282, 200],
             [927, 26, 901, 0xC3, 0xA9],
             text("AB") + [928, 111, 100, 17, 53, 923, 1, 111, 922]]
    return [[len(d) + 1] + d for d in datas]


def words_bytes(words):
    return b"".join(bytes([w >> 8, w & 255]) for w in words)


def main():
    out = sys.argv[1]
    seeds = {t: [] for t in ["qr-matrix", "qr-bitstream", "dm-matrix", "dm-bitstream", "aztec-matrix",
                             "aztec-bitstream", "pdf417-codewords", "pdf417-bitstream", "micropdf417-codewords",
                             "linear", "text", "scanner", "scanner-video", "element-frames", "element-props"]}

    for data, args in [("HELLO WORLD", []), ("https://example.com/0123456789", ["--vers=3"]),
                       ("12345678901234567890", ["--secure=4"]),
                       ("Grüße", ["--eci=26"]), ("v7 " * 40, ["--vers=7"])]:
        seeds["qr-matrix"].append(square(zint_rows(58, data, args)))
    for data, vers in [("1", 1), ("HELLO", 2), ("ABC123", 3), ("micro qr", 4)]:
        seeds["qr-matrix"].append(square(zint_rows(97, data, [f"--vers={vers}"])))
    for data, args in [("HELLO WORLD", []), ("1234567890", []), ("[01]09501101530003", ["--gs1"]),
                       ("Text mode text", ["--vers=25"]), ("Grüße", ["--eci=26"]), ("A" * 60, ["--dmre", "--vers=31"])]:
        seeds["dm-matrix"].append(datamatrix(zint_rows(71, data, args)))
    for data, args in [("HELLO WORLD", []), ("hello 12345 World", ["--vers=3"]), ("Grüße", ["--eci=26"]),
                       ("full range " * 3, ["--vers=6"])]:
        seeds["aztec-matrix"].append(square(zint_rows(92, data, args)))
    seeds["aztec-matrix"].append(square(zint_rows(128, "42")))

    for symbology, data in [(13, "501234567890"), (13, "9638507"), (34, "01234567890"), (37, "0123456"),
                            (13, "501234567890+12"), (20, "Code 128 test"), (8, "CODE39"), (25, "CODE93"),
                            (3, "12345678"), (18, "A1234B"), (29, "0950110153000"), (30, "0950110153000"),
                            (31, "[01]09501101530003[3103]001750"), (89, "1234567890123")]:
        rows = zint_rows(symbology, data)
        if rows:
            seeds["linear"].append(linear_seed(rows))
            if len(seeds["scanner"]) < 3:
                seeds["scanner"].append(picture_seed(rows, unit=2, quiet=10, bar_height=20))
    for symbology, data in [(58, "HELLO"), (71, "HELLO"), (92, "HELLO")]:
        rows = zint_rows(symbology, data)
        if rows:
            seeds["scanner"].append(picture_seed(rows, unit=3))

    qr = zint_rows(58, "https://example.com/0123456789")
    ean = zint_rows(13, "501234567890")
    if qr:
        seeds["scanner-video"] += [video_seed(3840, 2160, qr, 8), video_seed(1920, 1080, qr, 4, effort=2, threads=1),
                                   video_seed(1280, 720, qr, 3, effort=0, flags=1)]
    if ean:
        # Bars tiled over a whole 4K frame are kept as replayed inputs
        # (docs/FUZZING.md); a smaller frame here keeps smoke runs short.
        seeds["scanner-video"] += [video_seed(960, 540, [ean[0]] * 30, 4, threads=1),
                                   video_seed(640, 480, [ean[0]] * 30, 2, effort=2, flags=8)]
        # Frames: GRAY8 and NV12 with bars; props: effort, draw, n-threads,
        # attach-frame and frame-max-size set (property indices follow the
        # element's property list), a state cycle, then frames.
        seeds["element-frames"] += [element_seed(ean), element_seed(ean, fmt=0, width=333, height=97)]
        seeds["element-props"] += [element_seed(ean, frames=2, props=[(0, [i, 1, 5]) for i in range(12)], ops=(8, 2)),
                                   element_seed(ean, fmt=2, frames=3, props=[(3, [1]), (3, [3]), (4, [1, 5])], ops=(8, 2))]

    seeds["qr-bitstream"] = qr_bitstreams()
    seeds["dm-bitstream"] = dm_bitstreams()
    seeds["aztec-bitstream"] = aztec_bitstreams()
    for level, data in zip([0, 1, 2, 3, 4, 2], pdf417_datas()):
        seeds["pdf417-codewords"].append(bytes([level]) + words_bytes(data + pdf417_check(data, level)))
        seeds["pdf417-bitstream"].append(words_bytes(data))
    # MicroPDF417: (size index, codewords, check codewords) of a few sizes
    # (ISO/IEC 24728 Table 1), the data padded with 900; every codeword
    # read surely (margin 7) except in the last seed.
    for n, (size, count, checks) in enumerate([(0, 11, 7), (6, 16, 8), (13, 18, 12), (16, 36, 18), (23, 16, 8)]):
        data = pdf417_datas()[n % 4][1:]
        data = (data + [900] * count)[:count - checks]
        words = data + pdf417_check(data, 0, checks)
        margins = [7] * count if n < 4 else [7, 1, 7, 2] * (count // 4)
        seeds["micropdf417-codewords"].append(
            bytes([size]) + b"".join(bytes([w >> 8, w & 255, m]) for w, m in zip(words, margins)))
    seeds["text"] = [b"\x00" + b"0109501101530003\x1d10ABC", b"\x01Gr\xc3\xbc\xc3\x9fe",
                     b"\x01\x93\xfa\x96\x7b", b"\x02\x1a\xe6\x97\xa5", b"\x02\x04\xe9\xe8",
                     b"\x03\x82\xa0\x82\xa2", b"\x04\xb0\xa1\xd6\xd0"]

    for target, items in seeds.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for i, s in enumerate(x for x in items if x):
            with open(os.path.join(d, f"seed-{i:02d}"), "wb") as f:
                f.write(s)


if __name__ == "__main__":
    main()
