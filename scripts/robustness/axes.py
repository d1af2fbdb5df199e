"""The degradation axes: the parameter each sweeps, its levels from easy to hard, where it applies."""

from dataclasses import dataclass

from render import Scene


@dataclass(frozen=True)
class Axis:
    """One sweep: `field` of the Scene takes each of `levels` in turn (easiest first)."""
    name: str
    unit: str
    field: str
    levels: tuple
    base: Scene = Scene()
    only: tuple = ()          # symbology names it applies to (empty: every one)
    zint_options: tuple = ()  # extra zint options for the symbols of this axis
    doc: str = ''

    def applies(self, sym):
        return not self.only or sym.name in self.only

    def scene(self, level):
        return self.base.with_(**{self.field: level})

    def levels_for(self, sym):
        if self.field == 'quiet':
            return tuple(q for q in self.levels if q <= max(sym.quiet, 4) or sym.kind == 'linear')
        return self.levels


AXES = [
    Axis('module', 'px', 'module_px', (4, 3, 2.5, 2, 1.5, 1.25, 1),
         doc='pixels per module, quiet zone of the symbology'),
    Axis('module-q1', 'px', 'module_px', (4, 3, 2.5, 2, 1.5, 1.25, 1), Scene(quiet=1),
         doc='pixels per module with a quiet zone of 1 module'),
    Axis('quiet', 'mod', 'quiet', (10, 7, 5, 4, 3, 2, 1, 0.5, 0), Scene(module_px=2),
         doc='quiet zone in modules at 2 px per module, cluttered surface beyond it'),
    Axis('blur', 'mod', 'blur', (0, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0, 1.2, 1.5),
         doc='Gaussian blur sigma in modules at 3 px per module'),
    Axis('noise', 'grey', 'noise', (0, 8, 16, 24, 32, 44, 56, 72, 90),
         doc='additive Gaussian noise sigma in grey levels (ink 37, paper 242)'),
    Axis('contrast', '%', 'contrast', (100, 60, 40, 25, 15, 10, 6, 4),
         doc='ink-to-paper difference in % of 205 grey levels, around grey 140'),
    Axis('jpeg', 'q', 'jpeg', (95, 75, 50, 35, 25, 15, 10, 5), Scene(module_px=2),
         doc='JPEG quality at 2 px per module'),
    Axis('tilt', 'deg', 'tilt', (0, 20, 35, 45, 55, 62, 68, 74),
         doc='camera tilt about the vertical axis (perspective), degrees'),
    Axis('rotation', 'deg', 'rotation', (0, 5, 10, 20, 30, 45), Scene(module_px=2),
         doc='in-plane rotation at 2 px per module, degrees'),
    Axis('curve', 'deg', 'curve', (0, 45, 70, 90, 110, 130, 150, 170),
         doc='arc of a vertical cylinder the symbol is wrapped on (with its shading), degrees'),
    Axis('occlusion', '%', 'occlusion', (0, 2, 4, 6, 9, 12, 16, 20, 25),
         doc='share of the symbol under dark pen strokes one module wide, %'),
    Axis('row-height', 'mod', 'row_height', (3, 2.5, 2, 1.5, 1, 0.75, 0.5), Scene(module_px=2),
         only=('PDF417', 'MicroPDF417'), doc='module rows per stacked row at 2 px per module'),
    Axis('dots', 'mod', 'dots', (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4), only=('QR',),
         doc='modules drawn as discs of this diameter (finder patterns kept square), modules'),
    Axis('logo', '%', 'logo', (0, 4, 8, 12, 16, 20, 25, 30), only=('QR',), zint_options=('--secure=4',),
         doc='share of the symbol under a centred logo (error correction level H), %'),
]

BY_NAME = {a.name: a for a in AXES}
