"""Loads GStreamer through python3-gi once per process."""

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, GObject, Gst  # noqa: E402

Gst.init(None)

__all__ = ["GLib", "GObject", "Gst", "require_rlbarcode"]


def require_rlbarcode():
    """Raises RuntimeError with the plugin path when the rlbarcode element is missing."""
    if Gst.ElementFactory.find("rlbarcode") is None:
        import os
        raise RuntimeError(
            "the rlbarcode element is not installed; set GST_PLUGIN_PATH to the folder of "
            f"libgstrlbarcode.so (now {os.environ.get('GST_PLUGIN_PATH', 'unset')!r})")
