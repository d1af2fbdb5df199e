"""The readers compared: rlbarcode-scan (--jsonl), zxing-cpp (Python package) and zbarimg.

Each reader takes many picture paths per process and returns, for each path,
the list of texts it decoded. A reader that is not installed is unavailable
(its column reads n/a); one that fails on a batch reports the error.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 150


class Reader:
    """Decodes batches of pictures; `available` is False (with `why`) when it cannot run here."""
    name = ''
    available = True
    why = ''

    def read(self, paths, jobs=2):
        """{path: [{'text': str, 'bytes': bytes or None}, ...]} for every path ([]: nothing read)."""
        batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]
        found = {p: [] for p in paths}
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for got in pool.map(self.read_batch, batches):
                for path, texts in got.items():
                    if path in found:
                        found[path].extend(texts)
        return found

    def read_batch(self, paths):
        raise NotImplementedError

    def _run(self, argv, ok=(0,)):
        out = subprocess.run(argv, capture_output=True, timeout=1800, check=False)
        if out.returncode not in ok:
            sys.stderr.write(f'{self.name}: {argv[0]} exited {out.returncode}: '
                             f'{out.stderr.decode(errors="replace")[-500:]}\n')
        return out.stdout.decode('utf-8', 'surrogateescape')


def _json_lines(text):
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('{'):
            try:
                yield json.loads(line)
            except ValueError:
                continue


class RLBarcode(Reader):
    """`rlbarcode-scan --jsonl` (the still-picture path: every orientation, inverted, several scales)."""
    name = 'rlbarcode'

    def __init__(self, binary):
        self.binary = binary
        self.available = bool(binary) and os.access(binary, os.X_OK)
        self.why = '' if self.available else f'{binary} is not an executable'

    def read_batch(self, paths):
        got = {}
        for obj in _json_lines(self._run([self.binary, '--jsonl', *paths], ok=(0, 1))):
            got.setdefault(obj.get('file'), []).append(_text_of(obj))
        return got


class ZXing(Reader):
    """zxing-cpp's Python package, run by `python` (a venv that has it) through zxing_worker.py."""
    name = 'zxing-cpp'

    def __init__(self, python):
        self.python = python
        try:
            probe = subprocess.run([python, '-c', 'import zxingcpp, PIL'], capture_output=True, check=False)
            self.available = probe.returncode == 0
        except (OSError, TypeError):
            self.available = False
        self.why = '' if self.available else f'no zxingcpp module in {python or "any interpreter given"}'

    def read_batch(self, paths):
        got = {}
        for obj in _json_lines(self._run([self.python, os.path.join(HERE, 'zxing_worker.py'), *paths])):
            got.setdefault(obj.get('file'), []).append(_text_of(obj))
        return got


class ZBar(Reader):
    """`zbarimg --xml` from zbar-tools (no Data Matrix, PDF417, Aztec or Micro QR)."""
    name = 'zbar'

    def __init__(self):
        self.binary = shutil.which('zbarimg')
        self.available = self.binary is not None
        self.why = '' if self.available else 'zbarimg is not installed (apt-get install zbar-tools)'

    def read_batch(self, paths):
        text = self._run([self.binary, '--xml', '-q', '--nodbus', *paths], ok=(0, 4))
        got = {}
        try:
            root = ET.fromstring(text)
        except ET.ParseError:
            return got
        for source in root.iter('{http://zbar.sourceforge.net/2008/barcode}source'):
            texts = got.setdefault(source.get('href'), [])
            for data in source.iter('{http://zbar.sourceforge.net/2008/barcode}data'):
                value = data.text or ''
                if data.get('format') == 'base64':
                    value = base64.b64decode(value).decode('utf-8', 'replace')
                texts.append({'text': value, 'bytes': None})
        return got


def _text_of(obj):
    """A JSON line's decoded text and raw bytes (the text falls back on the bytes as UTF-8)."""
    raw = obj.get('bytes')
    raw = base64.b64decode(raw) if isinstance(raw, str) else None
    text = obj.get('text')
    if not isinstance(text, str):
        text = raw.decode('utf-8', 'replace') if raw is not None else ''
    return {'text': text, 'bytes': raw}
