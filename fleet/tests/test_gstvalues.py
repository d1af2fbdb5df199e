"""Element message fields as JSON: every field kept, GBytes as base64, arrays as lists, frames as a flag."""

import json

from rlbarcode_fleet.gstinit import GLib, Gst
from rlbarcode_fleet.gstvalues import structure_to_dict


def test_barcode_fields_become_json():
    s = Gst.Structure.from_string(
        'barcode, timestamp=(guint64)33333333, type=(string)Code-128, symbol=(string)RL000001, '
        'quality=(int)100, symbology-id=(string)"\\]C0", '
        'corners=(int)< 26, 12, 228, 11, 229, 51, 27, 52 >, new=(boolean)true, id=(uint)2;')[0]
    s.set_value("symbol-bytes", GLib.Bytes.new(b"RL000001"))
    caps = Gst.Caps.from_string("video/x-raw,format=NV12,width=2,height=2")
    s.set_value("frame", Gst.Sample.new(Gst.Buffer.new_allocate(None, 6, None), caps, None, None))
    d = structure_to_dict(s)
    assert d == {"timestamp": 33333333, "type": "Code-128", "symbol": "RL000001", "quality": 100,
                 "symbol-bytes": "UkwwMDAwMDE=", "symbology-id": "]C0",
                 "corners": [26, 12, 228, 11, 229, 51, 27, 52], "new": True, "id": 2, "frame": True}
    json.dumps(d)


def test_session_codes_become_objects():
    s = Gst.Structure.from_string(
        'barcode-session, reason=(string)eos, count=(uint)1, codes=(structure)< "barcode-session-code\\,'
        '\\ type\\=\\(string\\)EAN-13\\,\\ symbol\\=\\(string\\)5901234123457\\,\\ frames\\=\\(guint64\\)3\\;" >;')[0]
    assert structure_to_dict(s) == {"reason": "eos", "count": 1,
                                    "codes": [{"type": "EAN-13", "symbol": "5901234123457", "frames": 3}]}
