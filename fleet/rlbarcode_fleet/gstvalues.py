"""GstStructure fields as JSON-ready Python values."""

import base64

from .gstinit import GLib, GObject, Gst


def value_to_json(value):
    """One field value: GBytes as base64 text, arrays and lists as lists,
    nested structures as dicts, a GstSample as True (the frame itself is left out)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, GLib.Bytes):
        return base64.b64encode(value.get_data() or b"").decode("ascii")
    if isinstance(value, Gst.Structure):
        return structure_to_dict(value)
    if isinstance(value, (Gst.ValueArray, Gst.ValueList, list, tuple)):
        return [value_to_json(v) for v in value]
    if isinstance(value, Gst.Sample):
        return True
    if isinstance(value, Gst.Caps):
        return value.to_string()
    if isinstance(value, Gst.Fraction):
        return [value.num, value.denom]
    return str(value)


def structure_to_dict(structure):
    """Every field of `structure`, names unchanged (`symbol-bytes`, `first-seen`...)."""
    out = {}
    for i in range(structure.n_fields()):
        name = structure.nth_field_name(i)
        try:
            value = structure.get_value(name)
        except TypeError:  # a type python-gi cannot convert: named, not serialised
            value = "<%s>" % GObject.type_name(structure.get_field_type(name))
        out[name] = value_to_json(value)
    return out
