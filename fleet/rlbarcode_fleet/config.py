"""The fleet configuration file (TOML): service, MQTT broker and cameras.

See docs/FLEET.md and fleet/cameras.example.toml for the format.
"""

import dataclasses
import re
import tomllib

SOURCE_TYPES = ("v4l2", "rtsp", "file", "raw", "test", "pipeline")
_KIND = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and why."""


@dataclasses.dataclass
class Camera:
    """One camera: where its frames come from and the rlbarcode properties it runs with."""
    name: str
    type: str
    options: dict
    element: dict
    sync: bool
    loop: bool
    live: bool


@dataclasses.dataclass
class Mqtt:
    """The broker and how results are published to it."""
    host: str = "127.0.0.1"
    port: int = 1883
    topic_prefix: str = "rlbarcode"
    client_id: str = ""
    keepalive: int = 30
    username: str = ""
    password: str = ""
    max_inflight: int = 20


@dataclasses.dataclass
class Service:
    """Service-wide settings: journal, health endpoint, restart back-off and stall detection."""
    name: str = "rlbarcode-fleet"
    journal: str = "rlbarcode-fleet-journal.sqlite"
    health: str = ""
    backoff_initial: float = 1.0
    backoff_max: float = 60.0
    stable_after: float = 30.0
    stall_timeout: float = 10.0
    drain_timeout: float = 5.0


@dataclasses.dataclass
class Config:
    """A whole configuration file; `mqtt` is None when results go to stdout."""
    service: Service
    mqtt: "Mqtt | None"
    cameras: list


def _table(raw, key, cls, where):
    fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(cls)}
    values = {}
    for k, v in raw.get(key, {}).items():
        if k not in fields:
            raise ConfigError(f"{where}: unknown key {k!r} in [{key}] (known: {', '.join(sorted(fields))})")
        want = fields[k].type
        if want is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if type(v) is not want:
            raise ConfigError(f"{where}: [{key}] {k} must be {_KIND[want]}, not {v!r}")
        values[fields[k].name] = v
    return cls(**values)


_REQUIRED = {"v4l2": (), "rtsp": ("url",), "file": ("path",), "raw": ("path", "width", "height"),
             "test": (), "pipeline": ("source",)}
_INTEGERS = {"width", "height", "latency"}
_COMMON = {"name", "type", "element", "sync", "loop"}
_ALLOWED = {"v4l2": {"device", "caps"}, "rtsp": {"url", "latency"}, "file": {"path"},
            "raw": {"path", "width", "height", "format", "framerate"},
            "test": {"pattern", "width", "height", "framerate"}, "pipeline": {"source", "live"}}


def _camera(raw, index, where):
    here = f"{where}: camera {index + 1}"
    name = raw.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"{here}: 'name' must be letters, digits, '.', '_' or '-' (it names MQTT topics)")
    here = f"{where}: camera {name!r}"
    kind = raw.get("type")
    if kind not in SOURCE_TYPES:
        raise ConfigError(f"{here}: 'type' must be one of {', '.join(SOURCE_TYPES)}, not {kind!r}")
    options = {k: v for k, v in raw.items() if k not in _COMMON}
    unknown = set(options) - _ALLOWED[kind]
    if unknown:
        raise ConfigError(f"{here}: unknown key(s) {', '.join(sorted(unknown))} for type {kind!r}")
    for k, v in options.items():
        want = bool if k == "live" else int if k in _INTEGERS else str
        if type(v) is not want:
            raise ConfigError(f"{here}: {k} must be {_KIND[want]}, not {v!r}")
    missing = [k for k in _REQUIRED[kind] if k not in options]
    if missing:
        raise ConfigError(f"{here}: type {kind!r} needs {', '.join(missing)}")
    element = raw.get("element", {})
    if not isinstance(element, dict):
        raise ConfigError(f"{here}: 'element' must be a table of rlbarcode properties")
    live = kind in ("v4l2", "rtsp", "test") or bool(options.get("live", False))
    return Camera(name=name, type=kind, options=options, element=dict(element),
                  sync=bool(raw.get("sync", kind != "raw")), loop=bool(raw.get("loop", False)), live=live)


def parse(text, where="<config>"):
    """Parses a configuration file's text; raises ConfigError with the place of the first problem."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{where}: {err}") from None
    unknown = set(raw) - {"service", "mqtt", "camera"}
    if unknown:
        raise ConfigError(f"{where}: unknown table(s) {', '.join(sorted(unknown))}")
    service = _table(raw, "service", Service, where)
    mqtt = _table(raw, "mqtt", Mqtt, where) if "mqtt" in raw else None
    cams = raw.get("camera", [])
    if not isinstance(cams, list) or not cams:
        raise ConfigError(f"{where}: no [[camera]] tables")
    cameras = [_camera(c, i, where) for i, c in enumerate(cams)]
    names = [c.name for c in cameras]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ConfigError(f"{where}: camera name(s) used twice: {', '.join(sorted(dup))}")
    return Config(service=service, mqtt=mqtt, cameras=cameras)


def load(path):
    """Reads and parses the configuration file at `path`."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse(f.read(), str(path))
    except OSError as err:
        raise ConfigError(f"{path}: {err.strerror}") from None
