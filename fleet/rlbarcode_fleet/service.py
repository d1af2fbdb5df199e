"""rlbarcode-fleet: runs the cameras of a configuration file and publishes their results."""

import argparse
import signal
import sys
import threading

from . import config as fleet_config
from .camera import Camera, build_pipeline
from .gstinit import GLib, Gst, require_rlbarcode
from .health import HealthServer
from .sinks import MqttSink, StdoutSink


class Service:
    """The cameras, the output (MQTT through the journal, or stdout) and the health endpoint."""

    def __init__(self, cfg, health_address=""):
        self.cfg = cfg
        self.loop = GLib.MainLoop()
        self.lock = threading.Lock()
        self.finished = set()
        if cfg.mqtt is None:
            self.sink = StdoutSink(cfg.service.name)
        else:
            self.sink = MqttSink(cfg.mqtt, cfg.service.journal, cfg.service.name)
        self.cameras = [Camera(c, cfg.service, self._deliver, self._on_finished) for c in cfg.cameras]
        address = health_address or cfg.service.health
        self.health = HealthServer(address, self.snapshot) if address else None
        if self.health is not None:
            print(f"rlbarcode-fleet: health on http://{self.health.address}/health and /metrics",
                  file=sys.stderr)

    def _deliver(self, camera, kind, payload):
        self.sink.submit(camera, kind, payload)

    def _on_finished(self, camera):
        self.finished.add(camera.cam.name)
        if len(self.finished) == len(self.cameras):
            self.loop.quit()

    def _tick(self):
        with self.lock:
            for camera in self.cameras:
                camera.tick()
        return True

    def snapshot(self):
        """Health figures of every camera and of the output."""
        with self.lock:
            cams = {c.cam.name: c.health() for c in self.cameras}
        return {"service": self.cfg.service.name, "cameras": cams, "output": self.sink.stats()}

    def _stop(self):
        print("rlbarcode-fleet: stopping", file=sys.stderr)
        for camera in self.cameras:
            camera.stop()
        GLib.timeout_add(3000, self._force_stop)
        return False

    def _force_stop(self):
        for camera in self.cameras:
            camera.force_stop()
        self.loop.quit()
        return False

    def run(self):
        """Runs until every camera finished or SIGINT/SIGTERM; returns the exit status."""
        for sig in (signal.SIGINT, signal.SIGTERM):
            GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, self._stop)
        GLib.timeout_add(1000, self._tick)
        for camera in self.cameras:
            GLib.idle_add(camera.start)
        self.loop.run()
        self.sink.close(self.cfg.service.drain_timeout)
        if self.health is not None:
            self.health.close()
        return 0


def main(argv=None):
    """The rlbarcode-fleet command; returns its exit status (2: the configuration cannot be used)."""
    parser = argparse.ArgumentParser(
        prog="rlbarcode-fleet",
        description="Runs the rlbarcode pipelines of a configuration file and publishes every "
                    "barcode, barcode-status and barcode-session message (MQTT, or JSON lines on stdout).")
    parser.add_argument("config", help="the configuration file (TOML, see docs/FLEET.md)")
    parser.add_argument("--health", metavar="HOST:PORT", default="",
                        help="serve health figures on this loopback address (port 0: any free port)")
    parser.add_argument("--journal", metavar="PATH", help="the journal file (overrides [service] journal)")
    args = parser.parse_args(argv)
    try:
        cfg = fleet_config.load(args.config)
        if args.journal:
            cfg.service.journal = args.journal
        require_rlbarcode()
        for cam in cfg.cameras:  # every pipeline must build before anything starts
            build_pipeline(cam).set_state(Gst.State.NULL)
        service = Service(cfg, args.health)
    except (fleet_config.ConfigError, ValueError, RuntimeError, OSError) as err:
        print(f"rlbarcode-fleet: {err}", file=sys.stderr)
        return 2
    return service.run()


if __name__ == "__main__":
    sys.exit(main())
