#!/bin/sh
# `meson dist` hook: puts the whole rlbarcode package (Package.swift,
# Sources/, Tests/, pipelines/, ...) into the source tarball, next to this
# project's meson.build, so that the tarball builds offline on its own and
# serves as a Meson subproject without patch files.
#
# Run by meson with MESON_PROJECT_SOURCE_ROOT and MESON_PROJECT_DIST_ROOT set.
set -eu
SRC="${MESON_PROJECT_SOURCE_ROOT:-$MESON_SOURCE_ROOT}"
DIST="${MESON_PROJECT_DIST_ROOT:-$MESON_DIST_ROOT}"
# Already a package root (an unpacked tarball, or a wrap's patch layout):
# the package's files are this project's own sources and are in the dist.
if [ -f "$SRC/Package.swift" ]; then
    exit 0
fi
PACKAGE="$(cd "$SRC/.." && pwd)"
[ -f "$PACKAGE/Package.swift" ] || { echo "dist-package.sh: no Package.swift in $PACKAGE" >&2; exit 1; }
# The committed files, as meson dist takes this project's own files from git.
git -C "$PACKAGE" archive --format=tar HEAD | tar -x -C "$DIST"
# The Meson files sit at the top of the tarball; the copies in meson-wrap/
# of the archive are the same files.
cp "$SRC/meson.build" "$SRC/meson_options.txt" "$SRC/swiftpm-build.sh" "$SRC/dist-package.sh" "$DIST/"
