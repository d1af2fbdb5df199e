"""What the fleet tests and measurements start: mosquitto, the service, generated code videos."""

import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import paho.mqtt.client as mqtt

FLEET = pathlib.Path(__file__).resolve().parents[1]
REPO = FLEET.parent
FRAME_W, FRAME_H = 256, 80
PYTHON = "/usr/bin/python3"


def plugin_dir():
    """The folder holding libgstrlbarcode.so: RLBARCODE_RELEASE_BIN, else .build/release; None if neither."""
    for d in (os.environ.get("RLBARCODE_RELEASE_BIN"), os.path.join(REPO, ".build", "release")):
        if d and os.path.exists(os.path.join(d, "libgstrlbarcode.so")):
            return d
    return None


def gst_env():
    """The environment for a process that loads the rlbarcode element."""
    env = dict(os.environ)
    env["GST_PLUGIN_PATH"] = plugin_dir() or ""
    return env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_snapshot(port):
    """The service's /health JSON on a loopback port, or None while it does not answer."""
    import urllib.request
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


def wait_for(predicate, timeout, step=0.05):
    """Polls `predicate` until it is true or `timeout` s passed; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def code_texts(n, prefix="RL"):
    """n texts that fit a FRAME_W-wide Code 128 symbol: a two-letter prefix and six digits."""
    assert len(prefix) <= 2
    return [f"{prefix}{i:06d}" for i in range(n)]


def write_code_video(path, texts, size=(FRAME_W, FRAME_H), scale=1):
    """A raw GRAY8 video of `size` (FRAME_W x FRAME_H), one Code 128 symbol per frame (zint, `scale`
    pixels a module), one frame per text."""
    from PIL import Image
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "texts.txt")
        with open(listing, "w") as f:
            f.write("\n".join(texts) + "\n")
        subprocess.run(["zint", "-b", "20", "--batch", "--filetype=PNG", f"--scale={scale}", "--height=20",
                        "-o", os.path.join(tmp, "c~~~~~~.png"), "-i", listing],
                       check=True, capture_output=True)
        with open(path, "wb") as out:
            for i in range(len(texts)):
                code = Image.open(os.path.join(tmp, f"c{i + 1:06d}.png")).convert("L")
                frame = Image.new("L", size, 255)
                frame.paste(code, ((size[0] - code.width) // 2, (size[1] - code.height) // 2))
                out.write(frame.tobytes())
    return path


def raw_camera_toml(name, path, framerate="30/1", sync=False):
    """A [[camera]] table reading a write_code_video file."""
    return (f'[[camera]]\nname = "{name}"\ntype = "raw"\npath = "{path}"\nwidth = {FRAME_W}\n'
            f'height = {FRAME_H}\nformat = "gray8"\nframerate = "{framerate}"\n'
            f'sync = {"true" if sync else "false"}\n[camera.element]\nsymbologies = "code-128"\n')


class Broker:
    """A real mosquitto on a free loopback port, with persistence, that can be stopped and started again."""

    def __init__(self, workdir):
        self.dir = pathlib.Path(workdir)
        self.port = free_port()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.conf = self.dir / "mosquitto.conf"
        (self.dir / "db").mkdir(exist_ok=True)
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
            f"persistence_location {self.dir / 'db'}/\nmax_queued_messages 0\n"
            # At least the service's max-inflight: beyond it mosquitto drops QoS 2 messages of
            # MQTT 3.1.1 clients with a PUBREC the client cannot tell from a success.
            "max_inflight_messages 20\n"
            f"log_dest file {self.dir / 'mosquitto.log'}\n"
            # Started as root, mosquitto would become user mosquitto and could not write its store here.
            + ("user root\n" if os.geteuid() == 0 else ""))
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def accepting():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return True
            except OSError:
                return False
        if not wait_for(accepting, 10):
            raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def stop(self):
        """SIGTERM: mosquitto saves its persistent store and exits."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=20)
            self.proc = None


class Subscriber:
    """An independent paho client that records every message per topic.

    It subscribes with QoS 2 in a persistent session (clean_session=False, a fixed client id):
    the broker keeps its in-flight deliveries across a restart and paho-mqtt hands a message
    on only at its PUBREL, so each message comes once.

    Every one made is in `Subscriber.open` until closed (the tests' fixture closes what is left)."""

    open = []

    def __init__(self, port, topic="rlbarcode/#", client_id="fleet-test-subscriber"):
        self.messages = []  # (topic, payload dict, retained)
        self.redelivered = 0  # messages the broker marked DUP (its PUBLISH sent again)
        self.lock = threading.Lock()
        self.packets = []  # (packet id, DUP flag) of each message, as in `messages`
        self.subscribed = threading.Event()
        self.client = mqtt.Client(client_id=client_id, clean_session=False)
        # Subscribing again in a kept session would make the broker resend the retained messages.
        self.client.on_connect = lambda c, u, f, rc: (
            self.subscribed.set() if f.get("session present") else c.subscribe(topic, qos=2))
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.connect("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        Subscriber.open.append(self)
        if not self.subscribed.wait(10):
            raise RuntimeError("the test subscriber could not subscribe")

    def _on_message(self, client, userdata, msg):
        with self.lock:
            self.messages.append((msg.topic, json.loads(msg.payload), bool(msg.retain)))
            self.packets.append((msg.mid, bool(msg.dup)))
            self.redelivered += bool(msg.dup)

    def ids(self, suffix=""):
        with self.lock:
            return [p["msg-id"] for t, p, _ in self.messages if t.endswith(suffix)]

    def close(self):
        if self in Subscriber.open:
            Subscriber.open.remove(self)
            self.client.disconnect()
            self.client.loop_stop()


def start_fleet(config_path, *args, stdout=None):
    """rlbarcode-fleet CONFIG as a subprocess with the plugin on GST_PLUGIN_PATH."""
    return subprocess.Popen([PYTHON, str(FLEET / "bin" / "rlbarcode-fleet"), str(config_path), *args],
                            env=gst_env(), stdout=stdout or subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def stop_process(proc, timeout=20):
    """SIGTERM, then SIGKILL after `timeout` s; returns its stderr."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.stderr.read() if proc.stderr and not proc.stderr.closed else ""


def journal_ids(path):
    """(message id, acked) of every row of a fleet journal."""
    import sqlite3
    db = sqlite3.connect(path)
    jid = db.execute("SELECT value FROM meta WHERE key='id'").fetchone()[0]
    rows = [(f"{jid}-{seq}", bool(acked)) for seq, acked in db.execute("SELECT seq, acked FROM outbox")]
    db.close()
    return rows


if __name__ == "__main__":
    write_code_video(sys.argv[1], code_texts(int(sys.argv[2])))


def write_mjpeg_avi(raw_path, avi_path, framerate="30/1", size=(FRAME_W, FRAME_H)):
    """The frames of a write_code_video file as a Motion JPEG AVI (a small real video file)."""
    subprocess.run(["gst-launch-1.0", "-q", "filesrc", f"location={raw_path}", "!", "rawvideoparse",
                    f"width={size[0]}", f"height={size[1]}", "format=gray8", f"framerate={framerate}", "!",
                    "videoconvert", "!", "jpegenc", "quality=90", "!", "avimux", "!", "filesink",
                    f"location={avi_path}"], check=True, capture_output=True)
    return avi_path


class RtspServer:
    """pipelines/rtsp-serve.py serving a file on a fixed loopback port (re-encoded to H.264)."""

    def __init__(self, path, port):
        self.path, self.port, self.proc = path, port, None

    def start(self):
        self.proc = subprocess.Popen([PYTHON, str(REPO / "pipelines" / "rtsp-serve.py"), str(self.path),
                                      "--port", str(self.port), "--encode"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = self.proc.stdout.readline().strip()
        if not url.startswith("rtsp://"):
            raise RuntimeError("rtsp-serve.py did not start")
        return url

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def archive_texts(i, per_file=2):
    """The codes of archive test file number i."""
    return [f"AR{i * 10 + j:06d}" for j in range(per_file)]


def write_archive_files(folder, count, frames_per_code=15, size=(FRAME_W, FRAME_H), scale=1):
    """`count` Motion JPEG AVI files of `size` in `folder` (nested a level), each showing its
    archive_texts for `frames_per_code` frames each (Code 128, `scale` pixels a module)."""
    folder = pathlib.Path(folder)
    paths = []
    for i in range(count):
        sub = folder / f"day{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        raw = sub / f"clip{i:04d}.gray"
        write_code_video(raw, [t for t in archive_texts(i) for _ in range(frames_per_code)], size, scale)
        paths.append(write_mjpeg_avi(raw, sub / f"clip{i:04d}.avi", size=size))
        raw.unlink()
    return paths


def start_archive(*args):
    """rlbarcode-archive ARGS as a subprocess with the plugin on GST_PLUGIN_PATH."""
    return subprocess.Popen([PYTHON, str(FLEET / "bin" / "rlbarcode-archive"), *map(str, args)],
                            env=gst_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def fleet_config(tmp_path, cameras, broker=None, drain=30, health=None):
    """Writes a configuration file for `cameras` ([[camera]] tables); returns its path."""
    text = (f'[service]\nname = "test"\njournal = "{pathlib.Path(tmp_path) / "journal.sqlite"}"\n'
            f'drain-timeout = {drain}\nbackoff-initial = 0.2\n')
    if health:
        text += f'health = "127.0.0.1:{health}"\n'
    if broker is not None:
        text += f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
    path = pathlib.Path(tmp_path) / "cameras.toml"
    path.write_text(text + "".join(cameras))
    return path


def run_through_restarts(tmp_path, broker, cameras, codes, framerate, restarts, down=1.0, gap=1.0):
    """Runs `cameras` raw cameras of `codes` codes each through `restarts` broker restarts.

    Returns the journal's ids, every message the subscriber got, its stderr and the seconds taken."""
    video = write_code_video(pathlib.Path(tmp_path) / "codes.gray", code_texts(codes))
    cams = [raw_camera_toml(f"cam{i}", video, framerate=framerate, sync=True) for i in range(1, cameras + 1)]
    sub = Subscriber(broker.port)
    start = time.monotonic()
    health = free_port()
    fleet = start_fleet(fleet_config(tmp_path, cams, broker, health=health))
    try:
        for done in range(restarts):
            # The service is connected again (after `done` losses) and results flow.
            wait_for(lambda: (h := health_snapshot(health)) and h["output"]["connected"]
                     and h["output"]["reconnects"] == done, 60)
            time.sleep(gap)
            broker.stop()
            time.sleep(down)
            broker.start()
        status = fleet.wait(timeout=600)
    finally:
        err = stop_process(fleet)
    journal = journal_ids(pathlib.Path(tmp_path) / "journal.sqlite")
    wait_for(lambda: set(sub.ids()) >= {mid for mid, _ in journal}, 30)
    seconds = time.monotonic() - start
    sub.close()
    return {"status": status, "journal": journal, "messages": list(sub.messages), "stderr": err,
            "seconds": seconds, "redelivered": sub.redelivered, "packets": list(sub.packets)}


def delivery_figures(run):
    """Lost, repeated and per-camera texts of a run_through_restarts run."""
    import collections
    expected = {mid for mid, _ in run["journal"]}
    copies = collections.defaultdict(list)
    texts = collections.defaultdict(list)
    packets = collections.defaultdict(list)
    for (topic, payload, _), packet in zip(run["messages"], run["packets"]):
        copies[payload["msg-id"]].append((topic, payload))
        packets[payload["msg-id"]].append(packet)
    for mid, c in copies.items():
        if c[0][0].endswith("/barcode"):
            texts[c[0][0].split("/")[1]].append(c[0][1]["symbol"])
    return {"journalled": len(expected), "unacked": sum(not a for _, a in run["journal"]),
            "received": len(run["messages"]), "lost": len(expected - set(copies)),
            "unknown": len(set(copies) - expected),
            "repeats": sum(len(c) - 1 for c in copies.values()),
            # Copies the broker sent again itself: the first copy's packet id, flagged DUP.
            "repeats-broker-dup": sum(p[1:].count((p[0][0], True)) for p in packets.values()),
            "repeats-identical": all(all(x == c[0] for x in c) for c in copies.values()),
            "barcodes": sum(len(t) for t in texts.values()), "texts": texts}


def archive_with_killed_worker(video_dir, out, after_parts=3):
    """rlbarcode-archive on a two-worker LocalCluster of its own; one worker is killed (SIGKILL)
    while it runs a task, once `after_parts` parts are written.

    Returns (the job's exit status, its stderr, the killed pid, the parts written before the kill)."""
    from distributed import Client, LocalCluster
    # The workers, and the one started again in place of the killed one, load the plugin from
    # the environment they are spawned with and the task's module from this process's sys.path.
    if str(FLEET) not in sys.path:
        sys.path.insert(0, str(FLEET))
    saved = {k: os.environ.get(k) for k in ("GST_PLUGIN_PATH", "PYTHONPATH")}
    os.environ.update(GST_PLUGIN_PATH=plugin_dir(), PYTHONPATH=str(FLEET))
    cluster = client = None
    parts = pathlib.Path(out) / "parts"
    done = lambda: len([p for p in os.listdir(parts) if p.endswith(".jsonl")]) if parts.exists() else 0
    try:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               host="127.0.0.1")
        client = Client(cluster)
        job = start_archive(video_dir, "--out", out, "--scheduler", cluster.scheduler_address)
        if not wait_for(lambda: done() >= after_parts, 120):
            raise RuntimeError("the archive job wrote no parts")
        busy = [w for w, tasks in client.processing().items() if tasks]
        if not busy:
            raise RuntimeError("no worker was running a task")
        pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
        before = done()
        os.kill(pid, signal.SIGKILL)
        _, err = job.communicate(timeout=600)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    return job.returncode, err, pid, before
