"""Reads pictures with zxing-cpp (all formats, rotations and inversions on) and prints JSON lines.

Usage: python zxing_worker.py PICTURE...   (run by an interpreter that has zxingcpp and PIL)
"""

import base64
import json
import sys

import zxingcpp
from PIL import Image


def main(paths):
    for path in paths:
        try:
            image = Image.open(path).convert('L')
            found = zxingcpp.read_barcodes(image)
        except Exception as error:  # a picture that fails must not stop the batch
            sys.stderr.write(f'{path}: {error}\n')
            continue
        for code in found:
            print(json.dumps({'file': path, 'symbology': str(code.format), 'text': code.text,
                              'bytes': base64.b64encode(bytes(code.bytes)).decode()}))


if __name__ == '__main__':
    main(sys.argv[1:])
