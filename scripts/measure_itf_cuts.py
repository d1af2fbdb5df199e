#!/usr/bin/env python3
"""How often a longer ITF cut by the frame's border reads as a complete shorter one.

ITF (ISO/IEC 16390) has no check character of its own and its start (four
narrow elements) and stop (wide bar, narrow space, narrow bar) patterns are
made of element widths that data characters also have. This draws random
ITF symbols of 12 to 30 digits (no check digit) at module level, cuts each
at the left or the right border at every position 0.05 module apart, and
decodes the visible part as a reader would that takes the border for the
quiet zone on that side under a rule:

- `margin`: the start (left) or stop (right) pattern's outer bar touches
  the border: a light margin narrower than this (modules) at most;
- `cutbar`: a bar the border cuts counts as the outer bar when at least this
  much of a narrow bar is left.

The other end keeps its real quiet zone and stop (or start) pattern. It
prints the share of cut positions, and of symbols, that give a shorter
reading of at least four digits. See docs/QUIET-ZONES.md.

    /usr/bin/python3 scripts/measure_itf_cuts.py
"""
import random

PATTERNS = {'0': 'nnwwn', '1': 'wnnnw', '2': 'nwnnw', '3': 'wwnnn', '4': 'nnwnw',
            '5': 'wnwnn', '6': 'nwwnn', '7': 'nnnww', '8': 'wnnwn', '9': 'nwnwn'}
DIGIT = {v: k for k, v in PATTERNS.items()}


def elements(digits, wide):
    """Element widths in modules, bars and spaces alternating from the start pattern's first bar."""
    e = [1, 1, 1, 1]
    for i in range(0, len(digits), 2):
        for x, y in zip(PATTERNS[digits[i]], PATTERNS[digits[i + 1]]):
            e += [wide if x == 'w' else 1, wide if y == 'w' else 1]
    return e + [wide, 1, 1]


def decode(widths, wide):
    """The digits of a whole ITF symbol (every width used), or None."""
    cls = ''.join('w' if w > (1 + wide) / 2 else 'n' for w in widths)
    if len(cls) < 4 + 20 + 3 or (len(cls) - 7) % 10 or cls[:4] != 'nnnn' or cls[-3:] != 'wnn':
        return None
    out = ''
    for i in range(4, len(cls) - 3, 10):
        a, b = cls[i:i + 10:2], cls[i + 1:i + 10:2]
        if a not in DIGIT or b not in DIGIT:
            return None
        out += DIGIT[a] + DIGIT[b]
    return out


def visible(e, edges, c, side, margin, cutbar):
    """The widths a line ending on the border at `c` sees, or None when the rule refuses them."""
    k = max(i for i in range(len(e)) if edges[i] <= c)
    if side == 'left':
        if k % 2 == 0:
            return [edges[k + 1] - c] + e[k + 1:] if edges[k + 1] - c >= cutbar else None
        return e[k + 1:] if edges[k + 1] - c <= margin else None
    if k % 2 == 0:
        return e[:k] + [c - edges[k]] if c - edges[k] >= cutbar else None
    return e[:k] if c - edges[k] <= margin else None


def main():
    rng = random.Random(1)
    step = 0.05
    print('| wide:narrow | border | rule | cut positions read as a shorter ITF | symbols with such a position |')
    print('|---|---|---|---|---|')
    for wide in (2.0, 2.5, 3.0):
        for side in ('left', 'right'):
            for margin, cutbar, rule in ((99, 0.0, 'any margin, any cut bar'),
                                         (0.5, 0.75, 'margin < 0.5, cut bar >= 0.75 narrow'),
                                         (0.25, 0.9, 'margin < 0.25, cut bar >= 0.9 narrow')):
                false = cuts = symbols = 0
                for _ in range(300):
                    digits = ''.join(rng.choice('0123456789') for _ in range(rng.choice(range(12, 32, 2))))
                    e = elements(digits, wide)
                    edges = [0.0]
                    for w in e:
                        edges.append(edges[-1] + w)
                    hit = 0
                    c = step / 2
                    while c < edges[-1]:
                        cuts += 1
                        v = visible(e, edges, c, side, margin, cutbar)
                        got = decode(v, wide) if v else None
                        if got is not None and got != digits:
                            hit += 1
                        c += step
                    false += hit
                    symbols += hit > 0
                print(f'| {wide:g} | {side} | {rule} | {100 * false / cuts:.2f} % | {symbols}/300 |')


if __name__ == '__main__':
    main()
