#!/usr/bin/env python3
# Serves a video file over RTSP on this machine, to try scan-stream.sh (or
# any RTSP client) without a network camera.
#
# Usage: pipelines/rtsp-serve.py FILE [--port PORT] [--path /stream] [--encode]
#   FILE      an MP4, MOV or Matroska file with H.264 video (like media/demo.mp4),
#             sent as it is; with --encode, any video file, re-encoded to H.264
#   --port    the TCP port (default 8554; 0 picks a free one)
#   --path    the stream's path (default /stream)
# Prints "rtsp://127.0.0.1:PORT/PATH" on standard output once it listens, and
# serves until interrupted. Each client gets the file from its start, played
# in real time. Needs gir1.2-gst-rtsp-server-1.0 (and python3-gi).
import argparse
import shlex
import sys

import gi

gi.require_version("Gst", "1.0")
try:
    gi.require_version("GstRtspServer", "1.0")
except ValueError:
    sys.exit("rtsp-serve.py: GstRtspServer is missing (apt-get install gir1.2-gst-rtsp-server-1.0)")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def h264_encoder():
    """gst-launch words of an H.264 encoder, as pipelines/lib/common.sh picks it."""
    if Gst.ElementFactory.find("x264enc"):
        return "x264enc tune=zerolatency bitrate=4000"
    if Gst.ElementFactory.find("openh264enc"):
        return "openh264enc rate-control=bitrate bitrate=4000000"
    sys.exit("rtsp-serve.py: no H.264 encoder (install gstreamer1.0-plugins-bad)")


def main():
    parser = argparse.ArgumentParser(description="Serves a video file over RTSP.")
    parser.add_argument("file")
    parser.add_argument("--port", type=int, default=8554)
    parser.add_argument("--path", default="/stream")
    parser.add_argument("--encode", action="store_true", help="re-encode any video to H.264")
    args = parser.parse_args()
    Gst.init(None)

    location = shlex.quote(args.file)
    if args.encode:
        chain = "filesrc location=%s ! decodebin ! videoconvert ! %s ! h264parse" % (location, h264_encoder())
    else:
        chain = "filesrc location=%s ! parsebin ! h264parse config-interval=-1" % location
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch("( %s ! rtph264pay name=pay0 pt=96 config-interval=-1 )" % chain)

    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    path = args.path if args.path.startswith("/") else "/" + args.path
    server.get_mount_points().add_factory(path, factory)
    if server.attach(None) == 0:
        sys.exit("rtsp-serve.py: cannot listen on port %d" % args.port)
    print("rtsp://127.0.0.1:%d%s" % (server.get_bound_port(), path), flush=True)
    try:
        GLib.MainLoop().run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
