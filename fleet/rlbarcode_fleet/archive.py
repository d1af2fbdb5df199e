"""rlbarcode-archive: scans recorded video and still pictures on a Dask distributed cluster.

One task per file runs `filesrc ! decodebin ! videoconvert ! rlbarcode ! fakesink`
inside a worker process and writes that file's results atomically to
OUT/parts/KEY.jsonl (KEY from the file's path, size and modification time); the
parts of the files asked for are then merged into OUT/results.jsonl. A rerun skips
files whose part exists; a task that dies with its worker is run again elsewhere
and, writing only its own part, duplicates nothing.
"""

import argparse
import hashlib
import json
import os
import sys
import time

VIDEO = {".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".ts", ".mts", ".mpg", ".mpeg", ".ogv", ".flv"}
PICTURE = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".pnm", ".pgm", ".ppm"}
#: Element properties of the archive's pipelines unless --property says otherwise: the
#: workers give the parallelism, so each pipeline analyses on its streaming thread.
DEFAULT_PROPERTIES = {"report": "new", "n-threads": "1"}
#: Seconds without a bus message after which one file's scan is given up.
STALL_SECONDS = 120


def collect(paths):
    """The video and picture files named or below the folders named, sorted; unknown names as errors."""
    files, errors = [], []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                files += [os.path.join(root, n) for n in sorted(names)
                          if os.path.splitext(n)[1].lower() in VIDEO | PICTURE]
        elif os.path.isfile(p):
            files.append(p)
        else:
            errors.append((p, "no such file or folder"))
    return sorted(dict.fromkeys(files)), errors


def file_key(path):
    """The name of a file's part: its absolute path, size and modification time, hashed."""
    st = os.stat(path)
    ident = f"{os.path.abspath(path)}\0{st.st_size}\0{st.st_mtime_ns}"
    return hashlib.sha1(ident.encode()).hexdigest()


def _record(path, fields):
    rec = {"file": path, "pts": fields.get("timestamp"), "symbology": fields["type"],
           "text": fields["symbol"], "corners": fields.get("corners")}
    for src, dst in (("symbol-bytes", "bytes"), ("addon", "addon"), ("extended", "extended"),
                     ("symbology-id", "symbology-id"), ("id", "id")):
        if fields.get(src) not in (None, ""):
            rec[dst] = fields[src]
    return rec


def scan(path, properties):
    """The codes the element reports in one file: a list of records, or raises RuntimeError."""
    from .camera import set_element_properties
    from .gstinit import GLib, Gst, require_rlbarcode
    from .gstvalues import structure_to_dict
    require_rlbarcode()
    pipeline = Gst.parse_launch(
        "filesrc name=src ! decodebin ! videoconvert ! rlbarcode name=barcode ! fakesink sync=false")
    pipeline.get_by_name("src").set_property("location", path)
    set_element_properties(pipeline.get_by_name("barcode"), properties, "--property")
    bus = pipeline.get_bus()
    records = []
    try:
        pipeline.set_state(Gst.State.PLAYING)
        kinds = Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR
        while True:
            msg = bus.timed_pop_filtered(STALL_SECONDS * Gst.SECOND, kinds)
            if msg is None:
                raise RuntimeError(f"no progress for {STALL_SECONDS} s")
            if msg.type == Gst.MessageType.ERROR:
                raise RuntimeError(msg.parse_error()[0].message)
            if msg.type == Gst.MessageType.EOS:
                return records
            s = msg.get_structure()
            if s is not None and s.get_name() == "barcode":
                records.append(_record(path, structure_to_dict(s)))
    except GLib.Error as err:
        raise RuntimeError(err.message) from None
    finally:
        pipeline.set_state(Gst.State.NULL)


def write_atomically(path, lines):
    """Writes `lines` to path.PID.tmp, syncs it, renames it over `path` and syncs the folder."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def scan_file(path, part, properties):
    """One Dask task: scans `path` unless its part exists. Returns (status, path, codes or error)."""
    if os.path.exists(part):
        with open(part, encoding="utf-8") as f:
            return "done before", path, sum(1 for _ in f)
    try:
        records = scan(path, properties)
    except (RuntimeError, ValueError) as err:
        return "error", path, str(err)
    write_atomically(part, [json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in records])
    return "scanned", path, len(records)


def merge(parts, out_path):
    """Concatenates the parts (in the files' order) into one JSON-lines file, written atomically."""
    def lines():
        for part in parts:
            if os.path.exists(part):
                with open(part, encoding="utf-8") as f:
                    yield from (line.rstrip("\n") for line in f)
    write_atomically(out_path, lines())


def _properties(args):
    props = dict(DEFAULT_PROPERTIES)
    for name in ("symbologies", "effort", "region", "orientation"):
        value = getattr(args, name)
        if value:
            props["active-region" if name == "region" else name] = value
    for item in args.property:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--property {item!r}: expected NAME=VALUE")
        props[name] = value
    return props


def _client(args):
    from distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler, timeout=30), None
    cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                           dashboard_address=None, host="127.0.0.1")
    return Client(cluster), cluster


def _wait(client, futures):
    from distributed import progress, wait
    if sys.stderr.isatty():
        progress(list(futures))
    else:
        wait(list(futures))
    results = []
    for fut, path in futures.items():
        try:
            results.append(fut.result())
        except Exception as err:  # a task that lost its worker too often (KilledWorker)
            results.append(("error", path, f"{type(err).__name__}: {err}"))
    return results


def run(args):
    """Runs a whole job; returns the exit status (1 when any file failed)."""
    props = _properties(args)
    from .camera import set_element_properties
    from .gstinit import Gst, require_rlbarcode
    require_rlbarcode()
    set_element_properties(Gst.ElementFactory.make("rlbarcode"), props, "--property")  # fail early
    files, errors = collect(args.paths)
    parts_dir = os.path.join(args.out, "parts")
    os.makedirs(parts_dir, exist_ok=True)
    parts = {f: os.path.join(parts_dir, file_key(f) + ".jsonl") for f in files}
    start = time.monotonic()
    client, cluster = _client(args)
    try:
        futures = {client.submit(scan_file, f, parts[f], props, key=f"rlbarcode-{os.path.basename(p)}",
                                 pure=False): f for f, p in parts.items()}
        results = _wait(client, futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    merge([parts[f] for f in files], os.path.join(args.out, "results.jsonl"))
    counts = {"scanned": 0, "done before": 0, "error": 0}
    codes = 0
    for status, path, detail in results:
        counts[status] += 1
        if status == "error":
            errors.append((path, detail))
        else:
            codes += detail
    for path, why in errors:
        print(f"rlbarcode-archive: {path}: {why}", file=sys.stderr)
    print(f"rlbarcode-archive: {len(files)} files ({counts['scanned']} scanned, {counts['done before']} done "
          f"before, {len(errors)} failed), {codes} codes, {time.monotonic() - start:.1f} s; "
          f"{os.path.join(args.out, 'results.jsonl')}", file=sys.stderr)
    return 1 if errors else 0


def main(argv=None):
    """The rlbarcode-archive command; returns its exit status (1: a file failed, 2: bad options)."""
    parser = argparse.ArgumentParser(
        prog="rlbarcode-archive",
        description="Scans video files and still pictures for barcodes on a Dask cluster, one task per "
                    "file; results to OUT/results.jsonl. A rerun skips the files already done.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders to walk")
    parser.add_argument("--out", required=True, help="the output folder (parts/ and results.jsonl)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--local", type=int, metavar="N", default=2,
                       help="start a local cluster of N worker processes (default 2)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="use a running Dask scheduler")
    parser.add_argument("--symbologies", help="rlbarcode symbologies, e.g. ean-13+qr-code")
    parser.add_argument("--effort", help="fast, balanced or thorough")
    parser.add_argument("--region", help="active-region x,y,w,h in fractions of the frame")
    parser.add_argument("--orientation", help="any, up, right, down or left")
    parser.add_argument("--property", action="append", default=[], metavar="NAME=VALUE",
                        help="any other rlbarcode property (repeatable)")
    args = parser.parse_args(argv)
    if args.local is not None and args.local < 1:
        parser.error("--local needs at least 1 worker")
    try:
        return run(args)
    except (ValueError, RuntimeError, OSError) as err:
        print(f"rlbarcode-archive: {err}", file=sys.stderr)
        return 2
