"""The fleet service against a real mosquitto that is stopped and started again while codes flow."""

import collections
import signal
import urllib.request

import pytest

import support

pytestmark = pytest.mark.needs_plugin

CODES = 500  # per camera; two cameras


def _config(tmp_path, broker, cameras, drain=30):
    health = support.free_port()
    return support.fleet_config(tmp_path, cameras, broker, drain, health), health


def test_no_result_lost_across_two_broker_restarts(tmp_path, broker):
    # 50 frames a second in real time: 10 s of codes, long enough to restart the broker twice.
    run = support.run_through_restarts(tmp_path, broker, 2, CODES, "50/1", restarts=2)
    assert run["status"] == 0, run["stderr"]
    assert run["stderr"].count("lost the broker") == 2, run["stderr"]
    fig = support.delivery_figures(run)
    assert fig["unacked"] == 0 and fig["lost"] == 0 and fig["unknown"] == 0, run["stderr"]
    # QoS 2 in persistent sessions on both sides: every journalled message once from the service.
    # mosquitto 2.0.11 may itself send a message it already released again after its restart (the
    # first copy's packet id, flagged DUP: MQTT 3.1.1, 4.3.3 forbids it); only such copies may repeat.
    counts = collections.Counter(payload["msg-id"] for _, payload, _ in run["messages"])
    assert fig["repeats"] == fig["repeats-broker-dup"], [mid for mid, n in counts.items() if n > 1][:20]
    assert set(counts) == {mid for mid, _ in run["journal"]}
    for cam in ("cam1", "cam2"):
        assert sorted(fig["texts"][cam]) == support.code_texts(CODES), cam


def test_status_is_retained_and_health_served(tmp_path, broker):
    video = support.write_code_video(tmp_path / "codes.gray", support.code_texts(60))
    config, health = _config(tmp_path, broker, [support.raw_camera_toml("dock", video, "30/1", True)])
    fleet = support.start_fleet(config)
    try:
        snap = support.wait_for(lambda: _busy(support.health_snapshot(health)), 10)
        assert snap, support.health_snapshot(health)
        assert snap["output"]["connected"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{health}/metrics", timeout=2) as r:
            metrics = r.read().decode()
        assert 'rlbarcode_camera_codes_total{camera="dock"}' in metrics
        assert 'rlbarcode_camera_up{camera="dock"} 1' in metrics
        assert fleet.wait(timeout=30) == 0
    finally:
        support.stop_process(fleet)
    late = support.Subscriber(broker.port, client_id="late-subscriber")
    assert support.wait_for(lambda: late.messages, 5)
    late.close()
    topics = {(t, retained) for t, _, retained in late.messages}
    assert topics == {("rlbarcode/dock/status", True)}
    status = late.messages[-1][1]
    assert status["kind"] == "barcode-status" and status["found"] >= 1


def test_unacked_results_are_sent_after_the_service_restarts(tmp_path):
    broker = support.Broker(tmp_path / "broker")  # not started: the first run never reaches it
    video = support.write_code_video(tmp_path / "codes.gray", support.code_texts(40))
    config, _ = _config(tmp_path, broker, [support.raw_camera_toml("gate", video)], drain=1)
    first = support.start_fleet(config)
    assert first.wait(timeout=60) == 0, support.stop_process(first)
    support.stop_process(first)
    journal = support.journal_ids(tmp_path / "journal.sqlite")
    assert journal and not any(acked for _, acked in journal)
    broker.start()
    try:
        sub = support.Subscriber(broker.port)
        second = support.start_fleet(config)
        assert second.wait(timeout=60) == 0, support.stop_process(second)
        support.stop_process(second)
        after = support.journal_ids(tmp_path / "journal.sqlite")
        assert all(acked for _, acked in after)
        support.wait_for(lambda: len(sub.ids()) >= len(after), 10)
        sub.close()
        got = sub.ids()
        assert sorted(got) == sorted(mid for mid, _ in after)  # the first run's once, the second's once
        assert {mid for mid, _ in journal} < set(got)
    finally:
        broker.stop()


def _busy(snap):
    """The snapshot once the camera runs with codes and a frame rate (the first second measured)."""
    cam = snap["cameras"]["dock"] if snap else None
    return snap if cam and cam["state"] == "running" and cam["codes"] >= 10 and 20 < cam["fps"] < 40 else None


def test_service_killed_mid_run_loses_nothing(tmp_path, broker):
    video = support.write_code_video(tmp_path / "codes.gray", support.code_texts(300))
    config, _ = _config(tmp_path, broker, [support.raw_camera_toml("belt", video, "100/1", True)])
    sub = support.Subscriber(broker.port)
    first = support.start_fleet(config)
    try:
        assert support.wait_for(lambda: len(sub.ids("/barcode")) >= 50, 30)
        first.send_signal(signal.SIGKILL)  # no drain, no goodbye: only the journal on disk
        first.wait(timeout=10)
    finally:
        support.stop_process(first)
    killed = support.journal_ids(tmp_path / "journal.sqlite")
    second = support.start_fleet(config)
    assert second.wait(timeout=60) == 0, support.stop_process(second)
    support.stop_process(second)
    journal = support.journal_ids(tmp_path / "journal.sqlite")
    assert all(acked for _, acked in journal)
    expected = {mid for mid, _ in journal}
    support.wait_for(lambda: set(sub.ids()) >= expected, 20)
    sub.close()
    got = sub.ids()
    assert set(got) == expected and {mid for mid, _ in killed} < expected
    # What the killed run had marked acknowledged is never sent again. Only a message whose
    # PUBCOMP died with the process may come twice: at most its in-flight window (20).
    counts = collections.Counter(got)
    assert all(counts[mid] == 1 for mid, acked in killed if acked)
    assert len(got) - len(set(got)) <= 20
