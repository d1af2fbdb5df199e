"""Camera pipelines that fail are built again with back-off: a missing file, an RTSP server that goes away."""

import json
import subprocess

import pytest

import support

pytestmark = pytest.mark.needs_plugin


def _camera(port, name):
    snap = support.health_snapshot(port)
    return snap["cameras"][name] if snap else None


def test_missing_file_is_retried_until_it_appears(tmp_path):
    video = tmp_path / "later.gray"
    health = support.free_port()
    config = tmp_path / "cameras.toml"
    config.write_text(f'[service]\nhealth = "127.0.0.1:{health}"\nbackoff-initial = 0.2\nbackoff-max = 1.0\n'
                      + support.raw_camera_toml("aisle", video))
    fleet = support.start_fleet(config, stdout=subprocess.PIPE)
    try:
        cam = support.wait_for(lambda: (c := _camera(health, "aisle")) and c["restarts"] >= 3 and c, 20)
        assert cam, support.health_snapshot(health)
        assert "not found" in cam["last-error"].lower() or "no such file" in cam["last-error"].lower(), cam
        support.write_code_video(str(video) + ".part", support.code_texts(30, "AI"))
        (tmp_path / "later.gray.part").rename(video)
        out, err = fleet.communicate(timeout=60)
    finally:
        support.stop_process(fleet)
    assert fleet.returncode == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    texts = [m["symbol"] for m in lines if m["kind"] == "barcode"]
    assert texts == support.code_texts(30, "AI")
    assert len({m["msg-id"] for m in lines}) == len(lines)
    assert [m["kind"] for m in lines][-1] == "barcode-session"


def test_rtsp_camera_comes_back_after_its_server_stops(tmp_path):
    raw = support.write_code_video(tmp_path / "codes.gray", support.code_texts(900, "RT"))
    avi = support.write_mjpeg_avi(raw, tmp_path / "codes.avi")
    server = support.RtspServer(avi, support.free_port())
    url = server.start()
    health = support.free_port()
    config = tmp_path / "cameras.toml"
    config.write_text(f'[service]\nhealth = "127.0.0.1:{health}"\nbackoff-initial = 0.5\nbackoff-max = 2.0\n'
                      f'stall-timeout = 3.0\n[[camera]]\nname = "gate"\ntype = "rtsp"\nurl = "{url}"\n'
                      f'latency = 100\n[camera.element]\nsymbologies = "code-128"\n')
    fleet = support.start_fleet(config, stdout=subprocess.PIPE)
    try:
        assert support.wait_for(lambda: (c := _camera(health, "gate")) and c["codes"] >= 5, 40), \
            support.health_snapshot(health)
        server.stop()
        cam = support.wait_for(lambda: (c := _camera(health, "gate")) and c["restarts"] >= 1 and c, 20)
        assert cam, support.health_snapshot(health)
        codes_before = cam["codes"]
        server.start()
        cam = support.wait_for(lambda: (c := _camera(health, "gate")) and c["state"] == "running"
                               and c["codes"] >= codes_before + 5 and c, 40)
        assert cam, support.health_snapshot(health)
    finally:
        server.stop()
        err = support.stop_process(fleet)
    assert "restarting in" in err
