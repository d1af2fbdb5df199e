#!/usr/bin/env bash
# Installs what rlbarcode needs to build, test and run its demo on Debian 12.
# The Swift 6 toolchain itself must already be on PATH (swift.org's Linux
# toolchain, as on the build machines).
set -euo pipefail
if ! command -v swift >/dev/null 2>&1; then
    echo "setup: 'swift' is not on PATH; install the Swift 6 toolchain from swift.org first" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
    pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-x \
    python3 python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 python3-pil python3-numpy \
    gir1.2-gst-rtsp-server-1.0 gcc libc6-dev \
    zint meson ninja-build valgrind
# The fleet service and archive job (fleet/, docs/FLEET.md) and their tests:
# MQTT (mosquitto and paho-mqtt 1.6), Dask distributed, pytest.
$SUDO apt-get install -y --no-install-recommends \
    mosquitto mosquitto-clients python3-paho-mqtt python3-distributed python3-dask \
    python3-pytest python3-numpy
