#!/usr/bin/python3
"""Makes pipelines/media/demo.mp4, the project's demo clip, and demo-codes.txt.

Twelve seconds of 1280x720 video at 30 fps showing the symbologies the
element reads, drawn by zint: EAN-13, UPC-A, UPC-E, EAN-8 and an EAN-13 with
an EAN-5 add-on, then QR Code with PDF417, Data Matrix with Aztec Code, then
Code 128, GS1 DataBar, EAN-13 and EAN-8 together. Codes move, turn (also by
non-axis angles), blur and carry noise; one stretch (4 s to 5 s) has no codes
at all. Frames are composed with Pillow and piped as raw RGB into
gst-launch-1.0, which encodes H.264 (x264enc, else openh264enc) into MP4.

The output is deterministic: a fixed random seed, fixed encoder settings, and
the MP4 creation times zeroed.

Usage: /usr/bin/python3 scripts/make-demo-video.py [--out DIR] [--seconds N]
Needs: zint, python3-pil, gst-launch-1.0 with rawvideoparse, mp4mux, h264parse
and x264enc (gstreamer1.0-plugins-ugly) or openh264enc (plugins-bad).
"""

import argparse
import io
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFilter
except ImportError:
    sys.exit("make-demo-video: Pillow is missing (apt-get install python3-pil; run with /usr/bin/python3)")

WIDTH, HEIGHT, FPS = 1280, 720, 30
SEED = 20240601


def ean_check(digits):
    """The EAN/UPC check digit of a digit string without its check digit."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        total += int(ch) * (3 if i % 2 == 0 else 1)
    return str((10 - total % 10) % 10)


def upce_to_upca(upce):
    """Expands an 8-digit UPC-E (number system, 6 digits, check) to 12-digit UPC-A."""
    ns, d, check = upce[0], upce[1:7], upce[7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return ns + body + check


# Each code: (name, zint arguments, symbology, text as reported, addon, printed form).
def code_table():
    ean13 = "590123412345"
    upca = "03600029145"
    upce = "0123456"
    ean8 = "9638507"
    isbn = "978020137962"
    gtin = "0950110153000"
    upce_full = upce + ean_check(upce_to_upca(upce + "0")[:11])
    upca_full = upca + ean_check(upca)
    linear = ["--scale=2", "--height=40"]
    return [
        ("ean13", ["-b", "13", "-d", ean13] + linear, "EAN-13", ean13 + ean_check(ean13), "", ""),
        ("upca", ["-b", "34", "-d", upca] + linear, "UPC-A", "0" + upca_full, "", upca_full),
        ("upce", ["-b", "37", "-d", upce] + linear, "UPC-E", "0" + upce_to_upca(upce_full), "", upce_full),
        ("ean8", ["-b", "13", "-d", ean8] + linear, "EAN-8", ean8 + ean_check(ean8), "", ""),
        ("ean13addon", ["-b", "13", "-d", isbn + "+51299"] + linear, "EAN-13", isbn + ean_check(isbn), "51299", ""),
        ("qr", ["-b", "58", "-d", "https://rlbarcode.example/demo", "--scale=4"], "QR-Code",
         "https://rlbarcode.example/demo", "", ""),
        ("datamatrix", ["-b", "71", "-d", "rlbarcode:data-matrix", "--scale=5"], "Data-Matrix",
         "rlbarcode:data-matrix", "", ""),
        ("aztec", ["-b", "92", "-d", "rlbarcode:aztec", "--scale=5"], "Aztec", "rlbarcode:aztec", "", ""),
        ("pdf417", ["-b", "55", "-d", "rlbarcode:pdf417", "--scale=2"], "PDF417", "rlbarcode:pdf417", "", ""),
        ("databar", ["-b", "29", "-d", gtin, "--scale=2"], "DataBar", "01" + gtin + ean_check(gtin), "", ""),
        ("code128", ["-b", "20", "-d", "RLBARCODE-128"] + linear, "Code-128", "RLBARCODE-128", "", ""),
    ]


def make_code_images(tmp, codes):
    """Draws each code with zint (with its quiet zones) and returns name -> RGBA image."""
    images = {}
    for name, args, *_ in codes:
        path = os.path.join(tmp, name + ".png")
        subprocess.run(["zint", *args, "--quietzones", "-o", path], check=True)
        img = Image.open(path).convert("RGB")
        # a white label with a margin around the quiet zone
        pad = 12
        label = Image.new("RGB", (img.width + 2 * pad, img.height + 2 * pad), "white")
        label.paste(img, (pad, pad))
        images[name] = label.convert("RGBA")
    return images


def make_background(rng):
    """A muted, textured desk-like background."""
    bg = Image.new("RGB", (WIDTH, HEIGHT), (96, 104, 112))
    draw = ImageDraw.Draw(bg)
    for _ in range(40):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        w, h = rng.randrange(40, 260), rng.randrange(20, 160)
        shade = rng.randrange(70, 150)
        draw.rectangle([x, y, x + w, y + h], fill=(shade, shade + 6, shade + 12))
    for _ in range(30):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        draw.line([x, y, x + rng.randrange(-300, 300), y + rng.randrange(-200, 200)],
                  fill=(rng.randrange(60, 180),) * 3, width=rng.randrange(1, 4))
    return bg.filter(ImageFilter.GaussianBlur(2))


def make_noise(rng, amplitude, count=6):
    """Uniform luma noise images centred on 128 (from the seeded generator)."""
    lut = [max(0, min(255, 128 + (v - 128) * amplitude // 128)) for v in range(256)]
    tiles = []
    for _ in range(count):
        raw = bytes(rng.getrandbits(8) for _ in range(WIDTH * HEIGHT // 16))
        small = Image.frombytes("L", (WIDTH // 4, HEIGHT // 4), raw).point(lut)
        tiles.append(small.resize((WIDTH, HEIGHT), Image.NEAREST).convert("RGB"))
    return tiles


def place(frame, img, cx, cy, angle=0.0, blur=0.0, zoom=1.0):
    """Pastes a code image centred at (cx, cy), turned by `angle` degrees
    counter-clockwise, blurred by `blur` pixels, scaled by `zoom`."""
    if zoom != 1.0:
        img = img.resize((max(1, round(img.width * zoom)), max(1, round(img.height * zoom))), Image.BICUBIC)
    if angle:
        img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0, 0))
    if blur > 0:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    frame.paste(img, (round(cx - img.width / 2), round(cy - img.height / 2)), img)


def smooth(t):
    """Ease in/out from 0 to 1."""
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)


def compose(i, bg, codes, noise):
    """Frame `i`: which codes are where. Returns the frame and the codes shown."""
    t = i / FPS
    f = bg.copy()
    shown = []
    if t < 2.0:  # EAN-13 slides in upright, UPC-A turns slowly at a small angle
        p = smooth(t / 2.0)
        place(f, codes["ean13"], 200 + 300 * p, 220)
        place(f, codes["upca"], 900, 470, angle=-15 + 10 * p)
        shown += ["ean13", "upca"]
    elif t < 4.0:  # UPC-E turns through 90 degrees, EAN-8 turned 90 drifts up
        p = (t - 2.0) / 2.0
        place(f, codes["upce"], 420, 360, angle=90 * smooth(p))
        place(f, codes["ean8"], 950, 520 - 200 * p, angle=90)
        shown += ["upce", "ean8"]
    elif t < 5.0:  # nothing to read
        pass
    elif t < 7.0:  # the add-on code upside down then at 30 degrees, EAN-13 blurring
        p = (t - 5.0) / 2.0
        place(f, codes["ean13addon"], 640, 250, angle=180 if p < 0.5 else 150)
        place(f, codes["ean13"], 640, 560, blur=1.6 * p, zoom=0.9)
        shown += ["ean13addon", "ean13"]
    elif t < 8.5:  # QR Code moving and turning, PDF417 tilted
        p = (t - 7.0) / 1.5
        place(f, codes["qr"], 260 + 160 * p, 260, angle=35 * smooth(p))
        place(f, codes["pdf417"], 880, 500, angle=8)
        shown += ["qr", "pdf417"]
    elif t < 10.0:  # Data Matrix turning, Aztec Code drifting, tilted
        p = (t - 8.5) / 1.5
        place(f, codes["datamatrix"], 400, 330, angle=10 + 20 * smooth(p))
        place(f, codes["aztec"], 860 + 60 * p, 400, angle=-25)
        shown += ["datamatrix", "aztec"]
    else:  # Code 128 crossing and turning, DataBar, EAN-13 and EAN-8 drifting
        p = (t - 10.0) / 2.0
        dx = 30 * math.sin(2 * math.pi * p)
        place(f, codes["code128"], 420 + 240 * smooth(p), 215, angle=-15 + 30 * smooth(p), zoom=0.9)
        place(f, codes["databar"], 240 + dx, 555, angle=8)
        place(f, codes["ean13"], 700, 550 - dx, angle=-35, zoom=0.8)
        place(f, codes["ean8"], 1100, 520 + dx, angle=70)
        shown += ["code128", "databar", "ean13", "ean8"]
    f = ImageChops.add(f, noise[i % len(noise)], scale=1.0, offset=-128)
    return f, shown


def encoder_chain():
    """The gst-launch words for H.264 encoding: x264enc (gstreamer1.0-plugins-ugly,
    which scripts/setup.sh installs), else openh264enc (plugins-bad). Both run
    on one thread, so that the same frames give the same file."""
    have = lambda name: subprocess.run(["gst-inspect-1.0", "--exists", name]).returncode == 0
    if have("x264enc"):
        return ["x264enc", "bitrate=1800", "speed-preset=medium", "threads=1", "key-int-max=60", "bframes=0"]
    if have("openh264enc"):
        return ["openh264enc", "rate-control=bitrate", "bitrate=1800000", "complexity=high", "gop-size=60",
                "multi-thread=1"]
    sys.exit("make-demo-video: neither x264enc nor openh264enc is available "
             "(apt-get install gstreamer1.0-plugins-ugly)")


def zero_mp4_times(path):
    """Sets creation/modification times in mvhd, tkhd and mdhd to 0, so that
    the file does not depend on when it was made."""
    with open(path, "r+b") as fh:
        data = bytearray(fh.read())

    def walk(start, end):
        pos = start
        while pos + 8 <= end:
            size, kind = struct.unpack(">I4s", data[pos:pos + 8])
            header = 8
            if size == 1:
                size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
                header = 16
            elif size == 0:
                size = end - pos
            if size < header:
                return
            body = pos + header
            if kind in (b"moov", b"trak", b"mdia"):
                walk(body, pos + size)
            elif kind in (b"mvhd", b"tkhd", b"mdhd"):
                width = 8 if data[body] == 1 else 4
                data[body + 4:body + 4 + 2 * width] = bytes(2 * width)
            pos += size

    walk(0, len(data))
    with open(path, "r+b") as fh:
        fh.write(data)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "pipelines", "media"),
                        help="output folder (default: pipelines/media)")
    parser.add_argument("--seconds", type=float, default=12.0, help="clip length (default 12)")
    args = parser.parse_args()
    for tool in ("zint", "gst-launch-1.0", "gst-inspect-1.0"):
        if shutil.which(tool) is None:
            sys.exit("make-demo-video: '%s' is not installed (see scripts/setup.sh)" % tool)

    os.makedirs(args.out, exist_ok=True)
    out_mp4 = os.path.join(args.out, "demo.mp4")
    rng = random.Random(SEED)
    table = code_table()
    frames = int(round(args.seconds * FPS))
    with tempfile.TemporaryDirectory() as tmp:
        codes = make_code_images(tmp, table)
        bg = make_background(rng)
        noise = make_noise(rng, amplitude=14)
        partial = out_mp4 + ".part"
        cmd = ["gst-launch-1.0", "-q", "fdsrc", "fd=0", "!",
               "rawvideoparse", "format=rgb", "width=%d" % WIDTH, "height=%d" % HEIGHT,
               "framerate=%d/1" % FPS, "!", "videoconvert", "!", "video/x-raw,format=I420", "!",
               *encoder_chain(), "!", "h264parse", "!", "mp4mux", "!", "filesink", "location=" + partial]
        enc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        seen = {}  # name -> list of [first frame, last frame] intervals
        try:
            for i in range(frames):
                frame, shown = compose(i, bg, codes, noise)
                for name in shown:
                    spans = seen.setdefault(name, [])
                    if spans and spans[-1][1] == i - 1:
                        spans[-1][1] = i
                    else:
                        spans.append([i, i])
                enc.stdin.write(frame.tobytes())
            enc.stdin.close()
        except BrokenPipeError:
            pass
        if enc.wait() != 0:
            sys.exit("make-demo-video: gst-launch-1.0 failed: " + " ".join(cmd))
        zero_mp4_times(partial)
        os.replace(partial, out_mp4)

    with open(os.path.join(args.out, "demo-codes.txt"), "w") as fh:
        fh.write("# Codes in demo.mp4 (made by scripts/make-demo-video.py).\n")
        fh.write("# symbology\ttext (as reported)\taddon\tprinted digits\tvisible (seconds)\n")
        for name, _, symbology, text, addon, printed in table:
            spans = ",".join("%.2f-%.2f" % (a / FPS, (b + 1) / FPS) for a, b in seen.get(name, []))
            fh.write("%s\t%s\t%s\t%s\t%s\n" % (symbology, text, addon or "-", printed or "-", spans))
    print("wrote %s (%d bytes, %d frames) and demo-codes.txt" % (out_mp4, os.path.getsize(out_mp4), frames))


if __name__ == "__main__":
    main()
