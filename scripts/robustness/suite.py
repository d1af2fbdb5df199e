#!/usr/bin/env python3
"""Robustness suite for still pictures: where reading breaks, per symbology and degradation.

For every symbology and axis, pictures are generated (zint + numpy/PIL,
seeded, several payloads per level) along a sweep of one parameter, read by
rlbarcode-scan, zxing-cpp and zbar, and the breaking point is reported: the
last level, going from easy to hard, up to which every level has at least
--need of --payloads pictures read correctly. Wrong reads (some other text)
are counted apart: a wrong read is worse than a miss.

    /usr/bin/python3 scripts/robustness/suite.py --rlbarcode .build/release/rlbarcode-scan \\
        --zxing-python /tmp/zx/bin/python --json results.json

See docs/ROBUSTNESS.md for the axes, the table and how to regenerate the CI
expectations (--ci --write-expectations).
"""

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
import zlib
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from axes import AXES, BY_NAME as AXIS_BY_NAME  # noqa: E402
from matching import verdict  # noqa: E402
from readers import RLBarcode, ZBar, ZXing  # noqa: E402
from render import render  # noqa: E402
from symbols import BY_NAME as SYM_BY_NAME, SYMBOLOGIES, make_symbol  # noqa: E402
import textchecks  # noqa: E402

# The CI sweep: a few axes over the symbologies that stand for each family.
CI_SYMBOLOGIES = ('EAN-13', 'Code 128', 'QR', 'Data Matrix', 'PDF417', 'Aztec')
CI_AXES = ('module', 'quiet', 'blur', 'noise')
EXPECTATIONS = os.path.join(HERE, 'expectations.json')
REGENERATE = ('/usr/bin/python3 scripts/robustness/suite.py --ci --readers rlbarcode '
              '--rlbarcode .build/release/rlbarcode-scan --write-expectations scripts/robustness/expectations.json')


def _seed(*parts):
    return zlib.crc32('/'.join(map(str, parts)).encode()) & 0x7FFFFFFF


def _generate(task):
    """One picture: (key, path, expected) for (symbology, axis, level index, payload index)."""
    sym_name, axis_name, li, pi, seed, folder, reuse = task
    sym, axis = SYM_BY_NAME[sym_name], AXIS_BY_NAME[axis_name]
    scene = axis.scene(axis.levels_for(sym)[li])
    symbol = make_symbol(sym, pi, seed, axis.zint_options)
    slug = sym_name.replace(' ', '_')
    path = os.path.join(folder, f"{slug}-{axis_name}-{li}-{pi}.{'jpg' if scene.jpeg else 'png'}")
    if not (reuse and os.path.exists(path)):
        # the same picture seed at every level: noise and strokes grow, they are not drawn anew
        data, _ = render(symbol, sym, scene, _seed(seed, sym_name, axis_name, pi))
        with open(path + '.part', 'wb') as f:
            f.write(data)
        os.replace(path + '.part', path)
    return (sym_name, axis_name, li), path, symbol.expected


def plan(symbologies, axes, payloads, seed, folder, reuse=False):
    tasks = []
    for sym in symbologies:
        for axis in axes:
            if axis.applies(sym):
                for li in range(len(axis.levels_for(sym))):
                    tasks.extend((sym.name, axis.name, li, pi, seed, folder, reuse) for pi in range(payloads))
    return tasks


def breaking_point(levels, counts, need):
    """Index of the last level up to which every level has >= need correct reads (-1: not even the first)."""
    last = -1
    for i in range(len(levels)):
        if counts[i]['ok'] < need:
            break
        last = i
    return last


def score(pictures, results, readers, args):
    """Per (symbology, axis): levels, per reader the per-level counts, breaking point and wrong reads."""
    rows = {}
    for key, path, expected in pictures:
        sym_name, axis_name, li = key
        levels = AXIS_BY_NAME[axis_name].levels_for(SYM_BY_NAME[sym_name])
        row = rows.setdefault((sym_name, axis_name), {'symbology': sym_name, 'axis': axis_name,
                                                      'levels': list(levels), 'readers': {}})
        for reader in readers:
            r = row['readers'].setdefault(reader.name, {'counts': [{'ok': 0, 'wrong': 0, 'miss': 0}
                                                                   for _ in levels], 'wrong_texts': []})
            if not reader.available or (reader.name == 'zbar' and not SYM_BY_NAME[sym_name].zbar):
                r['na'] = True
                continue
            reads = results[reader.name].get(path, [])
            v = verdict(sym_name, expected, reads)
            r['counts'][li][v] += 1
            if v == 'wrong' and len(r['wrong_texts']) < 5:
                r['wrong_texts'].append({'file': os.path.basename(path), 'expected': expected,
                                         'read': [x['text'] for x in reads]})
    for row in rows.values():
        for r in row['readers'].values():
            if r.get('na'):
                r.update(point=None, value=None, wrong=None)
                continue
            i = breaking_point(row['levels'], r['counts'], args.need)
            r.update(point=i, value=row['levels'][i] if i >= 0 else None,
                     wrong=sum(c['wrong'] for c in r['counts']))
    return list(rows.values())


def _cell(r, unit):
    if r.get('na'):
        return 'n/a'
    value = 'none' if r['value'] is None else f"{r['value']:g} {unit}".strip()
    return value + (f" ({r['wrong']} wrong)" if r['wrong'] else '')


def markdown(rows, readers, args, checks, command):
    names = [r.name for r in readers]
    out = [f"Sweep of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: `{command}`", '',
           f"Breaking point: the last level, from easy to hard, up to which every level has at least "
           f"{args.need} of {args.payloads} pictures read correctly (`none`: not even the easiest); "
           f"(N wrong): pictures read as some other text over the whole sweep.", '',
           '| symbology | axis | levels (easy to hard) | ' + ' | '.join(names) + ' |',
           '|---|---|---|' + '---|' * len(names)]
    for row in rows:
        unit = AXIS_BY_NAME[row['axis']].unit
        levels = ' '.join(f'{v:g}' for v in row['levels'])
        out.append(f"| {row['symbology']} | {row['axis']} | {levels} {unit} | "
                   + ' | '.join(_cell(row['readers'][n], unit) for n in names) + ' |')
    if checks:
        out += ['', '| text check | expected | ' + ' | '.join(names) + ' |', '|---|---|' + '---|' * len(names)]
        for name, (expected, per_reader) in checks.items():
            out.append(f'| {name} | `{expected}` | ' + ' | '.join(
                f"{per_reader[n]['verdict']}: `{per_reader[n]['text']}`" if n in per_reader else 'n/a'
                for n in names) + ' |')
    return '\n'.join(out) + '\n'


def gaps(rows, worst=10):
    """Rows where rlbarcode breaks at an easier level than zxing-cpp, the widest gaps first."""
    found = []
    for row in rows:
        rl, zx = row['readers'].get('rlbarcode'), row['readers'].get('zxing-cpp')
        if not rl or not zx or rl.get('na') or zx.get('na'):
            continue
        if zx['point'] > rl['point']:
            found.append((zx['point'] - rl['point'], row))
    found.sort(key=lambda g: -g[0])
    return found[:worst] if worst else found


def run_text_checks(readers, folder, jobs):
    checks = {}
    pictures = textchecks.write_pictures(folder)
    for reader in readers:
        if not reader.available:
            continue
        got = reader.read([p for _, p in pictures], jobs)
        for check, path in pictures:
            reads = got.get(path, [])
            entry = checks.setdefault(check.name, (check.expected, {}))
            entry[1][reader.name] = {'verdict': textchecks.judge(check, reads),
                                     'text': ' / '.join(r['text'] for r in reads) or '-'}
    return checks


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--rlbarcode', default=shutil.which('rlbarcode-scan') or '.build/release/rlbarcode-scan',
                   help='the rlbarcode-scan binary (default: on PATH, else .build/release/rlbarcode-scan)')
    p.add_argument('--zxing-python', default=os.environ.get('RLBARCODE_ZXING_PYTHON', sys.executable),
                   help='a Python interpreter with the zxing-cpp package (default: this one, or '
                        '$RLBARCODE_ZXING_PYTHON); without it the zxing-cpp column is n/a')
    p.add_argument('--readers', default='rlbarcode,zxing-cpp,zbar', help='comma-separated readers to run')
    p.add_argument('--symbologies', help='comma-separated symbology names (default: all)')
    p.add_argument('--axes', help='comma-separated axis names (default: all)')
    p.add_argument('--ci', action='store_true',
                   help=f"the CI sweep: {', '.join(CI_SYMBOLOGIES)} x {', '.join(CI_AXES)}")
    p.add_argument('--payloads', type=int, default=4, help='pictures per level, each its own payload (4)')
    p.add_argument('--need', type=int, default=3, help='correct reads a level needs to pass (3)')
    p.add_argument('--seed', type=int, default=1, help='seed of payloads and degradations (1)')
    p.add_argument('--jobs', type=int, default=2, help='parallel generators and reader processes (2)')
    p.add_argument('--json', help='write the full results (per-level counts) here')
    p.add_argument('--markdown', help='write the markdown table here (it is always printed)')
    p.add_argument('--write-expectations', metavar='FILE',
                   help="write rlbarcode's breaking points as the CI expectations file")
    p.add_argument('--keep', metavar='DIR', help='write the pictures into DIR and keep them')
    p.add_argument('--reuse', action='store_true',
                   help='with --keep: pictures already in DIR (of the same seed and sweep) are read as they are')
    args = p.parse_args(argv)
    if args.reuse and not args.keep:
        p.error('--reuse needs --keep DIR')
    if args.need > args.payloads:
        p.error('--need cannot exceed --payloads')
    return args


def main(argv=None):
    args = parse_args(argv)
    command = shlex.join(['suite.py', *(argv if argv is not None else sys.argv[1:])])
    if shutil.which('zint') is None:
        sys.exit('zint is not installed (apt-get install zint): no pictures can be generated')
    sym_names = args.symbologies.split(',') if args.symbologies else CI_SYMBOLOGIES if args.ci else None
    axis_names = args.axes.split(',') if args.axes else CI_AXES if args.ci else None
    unknown = [n for n in sym_names or () if n not in SYM_BY_NAME] + \
        [n for n in axis_names or () if n not in AXIS_BY_NAME]
    if unknown:
        sys.exit(f"unknown symbology or axis: {', '.join(unknown)} (symbologies: "
                 f"{', '.join(SYM_BY_NAME)}; axes: {', '.join(AXIS_BY_NAME)})")
    symbologies = [SYM_BY_NAME[n] for n in sym_names] if sym_names else SYMBOLOGIES
    axes = [AXIS_BY_NAME[n] for n in axis_names] if axis_names else AXES

    wanted = args.readers.split(',')
    readers = [r for r in (RLBarcode(args.rlbarcode), ZXing(args.zxing_python), ZBar()) if r.name in wanted]
    for r in readers:
        if not r.available:
            print(f'{r.name}: n/a ({r.why})', file=sys.stderr)

    folder = args.keep or tempfile.mkdtemp(prefix='rlbarcode-robustness-')
    os.makedirs(folder, exist_ok=True)
    try:
        start = time.time()
        tasks = plan(symbologies, axes, args.payloads, args.seed, folder, args.reuse)
        with Pool(max(1, args.jobs)) as pool:
            pictures = pool.map(_generate, tasks, chunksize=16)
        print(f'{len(pictures)} pictures generated in {time.time() - start:.0f} s', file=sys.stderr)
        results = {}
        for reader in readers:
            if reader.available:
                t = time.time()
                results[reader.name] = reader.read([p for _, p, _ in pictures], args.jobs)
                print(f'{reader.name}: read in {time.time() - t:.0f} s', file=sys.stderr)
        rows = score(pictures, results, readers, args)
        checks = run_text_checks(readers, folder, args.jobs)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)

    table = markdown(rows, readers, args, checks, command)
    print(table)
    found = gaps(rows, worst=0)
    if found:
        print('rlbarcode breaks earlier than zxing-cpp (levels behind):')
        for n, row in found:
            print(f"  {row['symbology']} / {row['axis']}: rlbarcode {_cell(row['readers']['rlbarcode'], '')}, "
                  f"zxing-cpp {_cell(row['readers']['zxing-cpp'], '')} ({n})")
    if args.markdown:
        with open(args.markdown, 'w') as f:
            f.write(table)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'command': command, 'need': args.need, 'payloads': args.payloads, 'rows': rows,
                       'text_checks': checks}, f, indent=1, ensure_ascii=False)
    if args.write_expectations:
        write_expectations(args, rows)
    return 0


def write_expectations(args, rows):
    """rlbarcode's breaking point per (symbology, axis) of this sweep, for the CI test to hold."""
    entries = []
    for row in rows:
        r = row['readers'].get('rlbarcode')
        if r and not r.get('na'):
            entries.append({'symbology': row['symbology'], 'axis': row['axis'], 'levels': row['levels'],
                            'point': r['point'], 'wrong': r['wrong']})
    with open(args.write_expectations, 'w') as f:
        json.dump({'regenerate': REGENERATE, 'payloads': args.payloads, 'need': args.need, 'seed': args.seed,
                   'rows': entries}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    sys.exit(main())
