"""fleet/bench/streams_per_process.py: its scenes are shown and scored as it says."""

import json
import os
import subprocess

import pytest

import support

pytestmark = pytest.mark.needs_plugin

BENCH = os.path.join(support.REPO, "fleet", "bench", "streams_per_process.py")


def _rows(*args):
    done = subprocess.run(["/usr/bin/python3", BENCH, "--elements", "rlbarcode", "--streams", "1", *args],
                          env=support.gst_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("scene, frames, shown", [
    ("demo", "0", 2),     # the clip's first 2 s: the EAN-13 sliding in and the UPC-A
    ("clutter", "2", 2),  # the QR Code and the Code 128 over dense clutter
    ("code-128", "4", 4),  # four frames in turn, a Code 128 of its own each
])
def test_scene_codes_are_shown_and_read(scene, frames, shown):
    row, last = _rows("--seconds", "2", "--scene", scene, "--frames", frames)
    assert row["scene"] == scene and row["pushed"] == 60
    read, total = (int(v) for v in row["codes"].split("/"))
    assert total == shown, row
    assert read == total, row
    assert row["with-code"] <= row["pushed"], row
    # One stream paces itself within the sink's 20 ms: a late frame is rare
    # (a busy machine), a stream that does not pace has most frames late.
    assert row["late"] <= 3, row
    assert "largest-real-time-N" in last


def test_photos_are_judged_against_what_the_element_reads_with_no_clock():
    """Each frame another corpus photo: a photo counts when a reading of it is right, and the
    live stream is held to what the element reads in the same frames when nothing waits."""
    if not os.path.isdir(os.path.join(support.REPO, "..", "shared", "corpus")):
        pytest.skip("../shared/corpus is absent: the photos scene letterboxes its pictures")
    row, _ = _rows("--seconds", "2", "--scene", "photos", "--frames", "12")
    readable, labelled = (int(v) for v in row["read-with-no-clock"].split("/"))
    assert 0 < readable <= labelled <= 12, row
    read, total = (int(v) for v in row["codes"].split("/"))
    assert total == readable and read == total, row
