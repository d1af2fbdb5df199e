"""Command line: run the scene families and print the table.

    cd scripts && /usr/bin/python3 -m scenarios.run [--full] [--plugin-dir DIR]
        [--engines rlbarcode,zbar,zxing] [--only TEXT] [--json FILE]

Exit status 0 when every run ended cleanly, 1 when one stalled or failed,
77 when something the suite needs is missing (python3-numpy, python3-gi,
zint, the plugin).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

SKIP = 77


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="scenarios.run", description="Live-scene suite for the rlbarcode element")
    p.add_argument("--full", action="store_true", help="full size: every family, peers, live 4K (about 20 min)")
    p.add_argument("--plugin-dir", help="folder holding libgstrlbarcode.so (default: GST_PLUGIN_PATH)")
    p.add_argument("--engines", help="comma-separated: rlbarcode, zbar, zxing "
                   "(default: all three with --full, rlbarcode alone otherwise)")
    p.add_argument("--only", action="append", default=[],
                   help="run only scenes whose 'family/name' starts with TEXT (repeatable)")
    p.add_argument("--no-live", action="store_true", help="leave out the live 4K family")
    p.add_argument("--json", help="also write the figures as JSON to FILE")
    p.add_argument("--table-from", nargs="+", metavar="FILE",
                   help="print the tables of earlier --json files (a later file's rows replace earlier ones)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    try:
        import numpy  # noqa: F401
        import PIL  # noqa: F401
    except ImportError as e:
        print(f"skip: {e.name} is missing for {sys.executable} (apt-get install python3-numpy python3-pil)")
        return SKIP
    from . import families, pipeline, report, symbols
    if args.table_from:
        print(report.markdown(report.merged(args.table_from), None, 0))
        return 0
    try:
        symbols.zint_path()
        pipeline.init(args.plugin_dir)
    except (symbols.ZintMissing, pipeline.SetupError) as e:
        print(f"skip: {e}")
        return SKIP
    size = families.FULL if args.full else families.CI
    engines = args.engines.split(",") if args.engines else (
        list(pipeline.ENGINES) if args.full else ["rlbarcode"])
    bad = [e for e in engines if e not in pipeline.ENGINES]
    if bad:
        print(f"unknown engine(s): {', '.join(bad)} (rlbarcode, zbar, zxing)", file=sys.stderr)
        return 2
    missing = [e for e in engines if not pipeline.has_element(e)]
    for e in missing:
        print(f"note: the {e} element is not installed; its columns stay empty", file=sys.stderr)
    engines = [e for e in engines if e not in missing]
    scenes = [s for s in families.all_scenes(size)
              if (not args.only or any(f"{s.family}/{s.name}".startswith(o) for o in args.only))
              and not (s.live and (args.no_live or not size.full and not args.only))]
    start = time.monotonic()
    results = report.run_all(scenes, engines, size)
    print(report.markdown(results, size, time.monotonic() - start))
    if args.json:
        with open(args.json, "w") as out:
            json.dump([r.as_dict() for r in results], out, indent=1)
    return 1 if any(r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
