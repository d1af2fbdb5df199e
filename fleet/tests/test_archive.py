"""rlbarcode-archive on real Dask clusters: complete and unique results, resumable, a worker killed mid-job."""

import collections
import os
import re
import subprocess

import pytest

import support

pytestmark = pytest.mark.needs_plugin


def _index(path):
    """(file, text) -> how many records, from a results file."""
    return collections.Counter((r["file"], r["text"]) for r in support.read_jsonl(path))


def _expected(paths):
    return collections.Counter((str(p), t) for i, p in enumerate(paths) for t in support.archive_texts(i))


def test_archive_is_complete_and_resumes(tmp_path):
    paths = support.write_archive_files(tmp_path / "video", 8)
    picture = tmp_path / "video" / "still" / "label.png"  # a still picture, one frame
    picture.parent.mkdir()
    subprocess.run(["zint", "-b", "58", "-d", "STILL-QR", "--scale=3", "-o", picture], check=True)
    out = tmp_path / "out"
    job = support.start_archive(tmp_path / "video", tmp_path / "missing.mp4", "--out", out, "--local", "1",
                                "--symbologies", "code-128+qr-code")
    _, err = job.communicate(timeout=120)
    assert job.returncode == 1, err  # the missing path, named; the others still scanned
    assert "missing.mp4: no such file or folder" in err
    first = _index(out / "results.jsonl")
    assert first == _expected(paths) + collections.Counter({(str(picture), "STILL-QR"): 1})
    rec = support.read_jsonl(out / "results.jsonl")[0]
    assert rec["symbology"] == "Code-128" and len(rec["corners"]) == 8 and rec["pts"] == 0
    parts = sorted(os.listdir(out / "parts"))
    assert len(parts) == 9 and all(p.endswith(".jsonl") for p in parts)
    for p in parts[:3]:
        os.remove(out / "parts" / p)
    job = support.start_archive(tmp_path / "video", "--out", out, "--local", "1")
    _, err = job.communicate(timeout=120)
    assert job.returncode == 0, err
    assert "3 scanned, 6 done before, 0 failed" in err
    assert _index(out / "results.jsonl") == first


def test_killed_worker_costs_no_file_and_duplicates_none(tmp_path):
    paths = support.write_archive_files(tmp_path / "video", 24, frames_per_code=45)
    out = tmp_path / "out"
    status, err, pid, before = support.archive_with_killed_worker(tmp_path / "video", out)
    assert before < len(paths)
    assert status == 0, err
    # Tasks whose results died with the worker run again and find their part: "done before".
    counts = re.search(r"24 files \((\d+) scanned, (\d+) done before, 0 failed\)", err)
    assert counts and int(counts[1]) + int(counts[2]) == 24, err
    assert _index(out / "results.jsonl") == _expected(paths)  # every code of every file, once
    assert not [p for p in os.listdir(out / "parts") if p.endswith(".tmp") and str(pid) not in p]
