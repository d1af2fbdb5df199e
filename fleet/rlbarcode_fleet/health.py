"""Health figures over HTTP on a loopback port: /health (JSON) and /metrics (Prometheus text)."""

import http.server
import json
import threading

_METRICS = (("frames", "counter", "Frames analysed"),
            ("late", "counter", "Frames late at the sink or dropped before the element"),
            ("codes", "counter", "barcode messages posted"),
            ("restarts", "counter", "Pipeline restarts after a failure"),
            ("fps", "gauge", "Frames per second over the last second"))


def prometheus_text(snapshot):
    """The Prometheus text exposition (version 0.0.4) of a health snapshot."""
    lines = []
    for key, kind, help_text in _METRICS:
        name = f"rlbarcode_camera_{key}" + ("_total" if kind == "counter" else "")
        lines += [f"# HELP {name} {help_text}.", f"# TYPE {name} {kind}"]
        for cam, figures in snapshot["cameras"].items():
            lines.append(f'{name}{{camera="{cam}"}} {figures[key]}')
    lines += ["# HELP rlbarcode_camera_up 1 while the camera's pipeline runs.",
              "# TYPE rlbarcode_camera_up gauge"]
    for cam, figures in snapshot["cameras"].items():
        lines.append(f'rlbarcode_camera_up{{camera="{cam}"}} {int(figures["state"] == "running")}')
    out = snapshot["output"]
    for key in ("published", "acked", "unacked", "reconnects"):
        if key in out:
            lines += [f"# TYPE rlbarcode_mqtt_{key} gauge", f"rlbarcode_mqtt_{key} {out[key]}"]
    return "\n".join(lines) + "\n"


class HealthServer:
    """Serves `snapshot()` (a dict taken under the service's lock) on `host:port` in a thread."""

    def __init__(self, address, snapshot):
        host, _, port = address.rpartition(":")
        if host not in ("127.0.0.1", "localhost", "::1", "[::1]"):
            raise ValueError(f"health address {address!r}: only a loopback address is served")
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                snap = snapshot()
                if self.path in ("/health", "/health.json", "/"):
                    body, kind = json.dumps(snap, indent=1).encode(), "application/json"
                elif self.path == "/metrics":
                    body, kind = prometheus_text(snap).encode(), "text/plain; version=0.0.4"
                else:
                    self.send_error(404, "try /health or /metrics")
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer((host.strip("[]"), int(port)), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="health", daemon=True)
        self.thread.start()
        self.address = f"{host}:{self.port}"

    def close(self):
        """Stops serving and closes the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()
