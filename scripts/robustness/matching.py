"""Whether a reader's output is the expected text: GTIN forms, GS1 element strings, verdicts."""

import re

from symbols import upce_to_upca

EAN_FAMILY = {'EAN-13', 'EAN-8', 'UPC-A', 'UPC-E'}
GS1 = {'DataBar', 'DataBar Expanded'}
# GS1 AIs of predefined length (GS1 General Specifications 5.10.1): no GS after them
_FIXED = ('00', '01', '02', '03', '04', '11', '12', '13', '14', '15', '16', '17', '18', '19',
          '20', '31', '32', '33', '34', '35', '36', '41')


def _gs1_raw(text):
    """'(01)123(10)AB' -> '01123' '10AB' (the element string without GS separators)."""
    parts = re.findall(r'\((\d{2,4})\)([^(]*)', text)
    return ''.join(ai + value for ai, value in parts) if parts else text


def candidates(symbology, text):
    """Every form of `text` that counts as the same content for `symbology`."""
    t = text.strip()
    forms = {t}
    if symbology in EAN_FAMILY and t.isascii() and t.isdigit():
        if len(t) == 12:
            forms.add('0' + t)
        if len(t) == 8 and symbology == 'UPC-E':
            forms.add('0' + upce_to_upca(t))
    if symbology in GS1:
        raw = _gs1_raw(t).replace('\x1d', '')
        forms |= {raw, raw[3:] if raw.startswith(']e0') else raw}
        if len(raw) == 14 and raw.isdigit():
            forms.add('01' + raw)
    return forms


def verdict(symbology, expected, reads):
    """'ok' if any read is the expected content, 'wrong' if something else was read, else 'miss'."""
    want = expected.replace('\x1d', '')
    if any(want in candidates(symbology, r['text']) for r in reads):
        return 'ok'
    return 'wrong' if reads else 'miss'
