"""Running every scene on every element, and the markdown tables."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from . import pipeline
from .families import Size
from .scenes import Scene
from .score import Score, score


@dataclass
class Result:
    """One scene on one element."""
    family: str
    scene: str
    engine: str
    score: Score | None = None       # recorded scenes
    live: dict = field(default_factory=dict)  # live scenes
    error: str = ""

    @classmethod
    def from_dict(cls, d: dict) -> "Result":
        """The result `as_dict` wrote."""
        sc = Score.from_dict(d["score"]) if d.get("score") else None
        return cls(d["family"], d["scene"], d["engine"], sc, d.get("live") or {}, d.get("error", ""))

    def as_dict(self) -> dict:
        return {"family": self.family, "scene": self.scene, "engine": self.engine,
                "score": self.score.as_dict() if self.score else None, "live": self.live,
                "error": self.error}


def _capable(engine: str, scene: Scene) -> set[str] | None:
    """The symbologies of `scene` that `engine` is scored on (None: all)."""
    if engine == "rlbarcode":
        return None
    if scene.name.startswith("ean-13+ean-"):
        return set()  # add-ons: neither peer element reports them with their main code
    if engine == "zbar" and scene.family == "all-on":
        return set()  # zbar has no symbology setting: its "alone" run is the same run
    return pipeline.peer_nicks(engine) & scene.nicks  # peers have no active region


def run_all(scenes: list[Scene], engines: list[str], size: Size) -> list[Result]:
    """Every scene through every element that reads some of its codes."""
    out = []
    for scene in scenes:
        t0 = time.monotonic()
        frames, truths = pipeline.render(scene)
        for engine in engines:
            only = _capable(engine, scene)
            if only is not None and not only:
                continue
            if scene.live:
                out.append(_live(scene, frames, engine, size))
                continue
            modes = ("every-frame", "new") if engine == "rlbarcode" else ("every-frame",)
            timeout = 60 + scene.frames * scene.width * scene.height / 1e6
            runs = {m: pipeline.run_recorded(scene, frames, pipeline.element_desc(engine, scene, m), timeout)
                    for m in modes}
            sc = score(truths, runs, strict=engine == "rlbarcode", only=only)
            out.append(Result(scene.family, scene.name, engine, sc, error=sc.error))
        print(f"  {scene.family}/{scene.name}: {time.monotonic() - t0:.1f} s", file=sys.stderr)
    return out


def _live(scene: Scene, frames: list[bytes], engine: str, size: Size) -> Result:
    """A live scene's figures for one element."""
    r = pipeline.run_live(scene, frames, pipeline.element_desc(engine, scene, "every-frame"), size.live_seconds)
    live = {"fps_at_sink": r.at_sink / r.sink_window if r.sink_window else 0.0, "pushed": r.pushed,
            "dropped_at_source": r.pushed - r.into_element, "into_element": r.into_element,
            "at_sink_in_time": r.at_sink, "frames_with_read": r.read_frames,
            "unanalysed": max(0, r.into_element - r.read_frames),
            "load_average": os.getloadavg()[0]}
    return Result(scene.family, scene.name, engine, live=live, error=r.error)


def _fmt(v, digits=1) -> str:
    """A figure for the table ("–" when there is none)."""
    if v is None:
        return "–"
    return f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def _pct(v: float | None) -> str:
    """A share as a percentage."""
    return "–" if v is None else f"{100 * v:.0f} %"


def verdict(s: Score) -> str:
    """"pass" when every code was read, nothing wrong or false, one appearance each."""
    ok = (s.read == s.codes and s.wrong == 0 and s.false == 0 and not s.error
          and (s.appearances is None or s.appearances <= 1.0) and not s.id_switches)
    return "pass" if ok else "**fail**"


def merged(files: list[str]) -> list[Result]:
    """Results read from JSON files; a later file's rows replace earlier ones."""
    import json
    rows: dict[tuple[str, str, str], Result] = {}
    for path in files:
        with open(path) as f:
            for d in json.load(f):
                r = Result.from_dict(d)
                rows[(r.family, r.scene, r.engine)] = r
    return list(rows.values())


def summary(results: list[Result]) -> list[str]:
    """One row per scene: codes read (and wrong reads) by each element."""
    engines = [e for e in pipeline.ENGINES if any(r.engine == e and r.score for r in results)]
    scenes: dict[tuple[str, str], dict[str, Result]] = {}
    for r in results:
        if r.score:
            scenes.setdefault((r.family, r.scene), {})[r.engine] = r
    lines = ["| family | scene | " + " | ".join(engines) + " | rlbarcode verdict |",
             "|---|---|" + "---|" * (len(engines) + 1)]
    for (family, scene), by in scenes.items():
        cells = []
        for e in engines:
            s = by[e].score if e in by else None
            cells.append("–" if s is None else f"{s.read}/{s.codes}" + (f", {s.wrong} wrong" if s.wrong else ""))
        rl = by.get("rlbarcode")
        lines.append(f"| {family} | {scene} | " + " | ".join(cells) + f" | {verdict(rl.score) if rl else ''} |")
    return lines


def markdown(results: list[Result], size: Size | None, seconds: float) -> str:
    title = f"Scenario suite ({'full' if size.full else 'CI'} size), {seconds:.0f} s" if size else "Scenario suite"
    lines = [title, ""] + summary(results) + ["",
             "| family | scene | element | codes read | frames to first read | frames read | appearances per code "
             "| id switches | wrong reads | false reports | guidance changes | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if r.score is None:
            continue
        s = r.score
        lines.append(f"| {r.family} | {r.scene} | {r.engine} | {s.read}/{s.codes} | {_fmt(s.frames_to_read)} "
                     f"| {_pct(s.read_rate)} "
                     f"| {_fmt(s.appearances, 2)} | {_fmt(s.id_switches)} | {s.wrong} | {s.false} "
                     f"| {_fmt(s.guidance_changes)} | {verdict(s) if r.engine == 'rlbarcode' else ''}"
                     f"{' ' + r.error if r.error else ''} |")
    live = [r for r in results if r.live]
    if live:
        lines += ["", "| live 4K | element | fps at sink | frames pushed | dropped by the source "
                  "| reached the sink in time | frames with a reading | passed unanalysed |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in live:
            v = r.live
            lines.append(f"| {r.scene if r.engine == 'rlbarcode' else '–'} | {r.engine} | {v['fps_at_sink']:.1f} "
                         f"| {v['pushed']} | {v['dropped_at_source']} | {v['at_sink_in_time']} "
                         f"| {v['frames_with_read']} | {v['unanalysed']}{' ' + r.error if r.error else ''} |")
    return "\n".join(lines)
