#!/usr/bin/env python3
"""Reads barcodes from a video with the rlbarcode element, in an application.

The pipeline is

    filesrc ! decodebin ! videoconvert ! rlbarcode ! appsink

The application reads two things:

- the `barcode` element messages on the bus (one per code when it comes into
  view), and
- the region-of-interest metadata on every buffer the appsink hands over
  (one GstVideoRegionOfInterestMeta of type "barcode" per code in the frame,
  with a "barcode" params structure).

It prints one line per message and one per meta:

    message 0.000s EAN-13 5901234123457 id=1
    meta    0.000s EAN-13 5901234123457 id=1 box=17,121 381x180

Usage: python3 examples/python/scan_appsink.py VIDEO [MAX_FRAMES]
Needs python3-gi with the Gst, GstApp and GstVideo typelibs (gir1.2-gstreamer-1.0,
gir1.2-gst-plugins-base-1.0), and the rlbarcode plugin on GST_PLUGIN_PATH.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
gi.require_version("GstApp", "1.0")
from gi.repository import GLib, Gst, GstApp, GstVideo  # noqa: E402,F401  (GstApp: appsink's methods)


def seconds(ns):
    """A GStreamer time in nanoseconds as seconds, for printing."""
    return "%.3fs" % (ns / Gst.SECOND) if ns != Gst.CLOCK_TIME_NONE else "-"


def print_message(structure):
    """Prints a `barcode` message; returns its tracking id."""
    code_id = structure.get_value("id")
    addon = structure.get_string("addon") or ""
    print("message %s %s %s%s id=%d" % (
        seconds(structure.get_value("timestamp")), structure.get_string("type"),
        structure.get_string("symbol"), " +" + addon if addon else "", code_id))
    return code_id


def print_metas(buffer, known_ids):
    """Prints the barcode ROI metas of a buffer.

    PyGObject cannot walk a buffer's metas one by one, but it can look one up
    by its id, and rlbarcode gives each meta the tracking id of its code,
    the `id` of the code's `barcode` message. A message is posted before the
    buffer leaves the element, so every id is known by the time the buffer
    reaches the appsink.
    """
    api = GstVideo.VideoRegionOfInterestMeta.get_info().api
    expected = buffer.get_n_meta(api)
    found = 0
    for code_id in sorted(known_ids):
        roi = GstVideo.buffer_get_video_region_of_interest_meta_id(buffer, code_id)
        if roi is None or GLib.quark_to_string(roi.roi_type) != "barcode":
            continue
        found += 1
        params = roi.get_param("barcode")
        addon = params.get_string("addon") if params.has_field("addon") else ""
        print("meta    %s %s %s%s id=%d box=%d,%d %dx%d" % (
            seconds(buffer.pts), params.get_string("type"), params.get_string("symbol"),
            " +" + addon if addon else "", roi.id, roi.x, roi.y, roi.w, roi.h))
    if found != expected:
        print("warning: %d of %d region metas have an id no message announced" % (expected - found, expected),
              file=sys.stderr)


def main(argv):
    if len(argv) < 2:
        print(next(p for p in __doc__.split("\n\n") if p.startswith("Usage")), file=sys.stderr)
        return 2
    max_frames = int(argv[2]) if len(argv) > 2 else 0
    Gst.init(None)
    if Gst.ElementFactory.find("rlbarcode") is None:
        print("the rlbarcode element is not found: set GST_PLUGIN_PATH to the folder of libgstrlbarcode.so",
              file=sys.stderr)
        return 1

    pipeline = Gst.parse_launch(
        "filesrc name=src ! decodebin ! videoconvert ! rlbarcode ! appsink name=sink sync=false max-buffers=4")
    pipeline.get_by_name("src").set_property("location", argv[1])
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)

    known_ids = set()
    frames = 0
    status = 0
    while True:
        sample = sink.try_pull_sample(10 * Gst.SECOND)
        # The messages of this frame (and anything else on the bus) first.
        while True:
            msg = bus.pop_filtered(Gst.MessageType.ELEMENT | Gst.MessageType.ERROR)
            if msg is None:
                break
            if msg.type == Gst.MessageType.ERROR:
                err, _ = msg.parse_error()
                print("error: %s" % err.message, file=sys.stderr)
                status = 1
            elif msg.get_structure().get_name() == "barcode":
                known_ids.add(print_message(msg.get_structure()))
        if sample is None or status != 0:
            break
        print_metas(sample.get_buffer(), known_ids)
        frames += 1
        if max_frames and frames >= max_frames:
            break
    pipeline.set_state(Gst.State.NULL)
    print("frames %d" % frames)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
