"""Scoring the bus messages of a scene against its ground truth."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from .pipeline import Report, RunResult
from .scenes import Truth


@dataclass
class Score:
    """The figures of one scene for one element."""
    codes: int = 0                # codes fully in view at some frame
    read: int = 0                 # read at least once while fully in view
    first_read: list[int] = field(default_factory=list)  # frames from first in view to first read
    appearances: float | None = None  # new reports per read code (report=new)
    id_switches: int | None = None    # tracking id changes of one code (report=every-frame)
    wrong: int = 0                # texts matching no code in view
    false: int = 0                # reports with no code in view
    guidance_changes: int | None = None  # barcode-status guidance changes (report=new)
    frames_in_view: int = 0       # (code, frame) pairs fully in view
    frames_read: int = 0          # of those, read in that frame (report=every-frame)
    error: str = ""

    @property
    def read_rate(self) -> float | None:
        """The share of frames with a code fully in view in which it was read."""
        return self.frames_read / self.frames_in_view if self.frames_in_view else None

    @property
    def frames_to_read(self) -> float | None:
        return sum(self.first_read) / len(self.first_read) if self.first_read else None

    @classmethod
    def from_dict(cls, d: dict) -> "Score":
        """The score `as_dict` wrote."""
        names = [f.name for f in fields(cls)]
        return cls(**{k: d[k] for k in names if k in d})

    def as_dict(self) -> dict:
        return {"codes": self.codes, "first_read": self.first_read, "frames_in_view": self.frames_in_view,
                "frames_read": self.frames_read, "read": self.read, "frames_to_read": self.frames_to_read,
                "read_rate": self.read_rate,
                "appearances": self.appearances, "id_switches": self.id_switches, "wrong": self.wrong,
                "false": self.false, "guidance_changes": self.guidance_changes, "error": self.error}


def _matches(r: Report, t: Truth, strict: bool) -> bool:
    """Whether `r` reads `t`: the spec's text and add-on (strict), or any form."""
    if strict:
        return r.text == t.text and r.addon == t.addon
    return r.text == t.text or r.text in t.alt


def _centre(corners: tuple[int, ...]) -> tuple[float, float] | None:
    if len(corners) != 8:
        return None
    return sum(corners[0::2]) / 4, sum(corners[1::2]) / 4


def _assign(r: Report, truth: list[Truth], strict: bool, taken: set[str]) -> Truth | None:
    """The code in view that report `r` names: text first, then nearest centre."""
    cands = [t for t in truth if t.visible and _matches(r, t, strict)]
    if not cands:
        return None
    c = _centre(r.corners)
    if c is not None:
        return min(cands, key=lambda t: math.dist(c, t.centre))
    free = [t for t in cands if t.key not in taken and t.full] or cands
    return free[0]


def score(truths: list[list[Truth]], runs: dict[str, RunResult], strict: bool,
          only: set[str] | None = None) -> Score:
    """Figures of a scene: `runs` holds "every-frame" and/or "new" results.

    `strict` asks for the spec's texts; `only` limits the codes counted to
    those symbologies (a peer's), while readings are still matched against
    every code in view.
    """
    s = Score()
    first_full: dict[str, int] = {}
    for f, truth in enumerate(truths):
        for t in truth:
            if t.full and (only is None or t.nick in only):
                first_full.setdefault(t.key, f)
                s.frames_in_view += 1
    s.codes = len(first_full)
    main = runs.get("every-frame") or runs.get("new")
    s.error = "; ".join(f"{k}: {r.error}" for k, r in runs.items() if r.error)
    first_read: dict[str, int] = {}
    ids: dict[str, list[int]] = {}
    taken_by_frame: dict[int, set[str]] = {}
    read_in_frame: set[tuple[str, int]] = set()
    for r in main.reports:
        truth = truths[r.frame] if 0 <= r.frame < len(truths) else []
        taken = taken_by_frame.setdefault(r.frame, set())
        t = _assign(r, truth, strict, taken)
        if t is None:
            if any(x.visible for x in truth):
                s.wrong += 1
            else:
                s.false += 1
            continue
        taken.add(t.key)
        if t.full and t.key in first_full:
            first_read.setdefault(t.key, r.frame)
            read_in_frame.add((t.key, r.frame))
        if r.id is not None:
            ids.setdefault(t.key, []).append(r.id)
    s.read = len(first_read)
    s.frames_read = len(read_in_frame) if "every-frame" in runs else 0
    s.first_read = [first_read[k] - first_full[k] for k in first_read]
    if "every-frame" in runs and ids:
        s.id_switches = sum(sum(1 for a, b in zip(v, v[1:]) if a != b) for v in ids.values())
    if "new" in runs:
        s.appearances = _appearances(truths, runs["new"], strict)
        statuses = runs["new"].statuses
        s.guidance_changes = sum(1 for a, b in zip([{"guidance": 0}] + statuses, statuses)
                                 if a["guidance"] != b["guidance"])
    return s


def _appearances(truths: list[list[Truth]], run: RunResult, strict: bool) -> float | None:
    """Reports with new=true per code they name (1 is right for a code in view throughout)."""
    per: dict[str, int] = {}
    for r in run.reports:
        if r.new is False:
            continue
        truth = truths[r.frame] if 0 <= r.frame < len(truths) else []
        t = _assign(r, truth, strict, set())
        if t is not None:
            per[t.key] = per.get(t.key, 0) + 1
    return sum(per.values()) / len(per) if per else None
