# Shared set-up for the rlbarcode example pipelines; sourced, not run.
#
# Sets ROOT (the repository), MEDIA (pipelines/media) and GST_PLUGIN_PATH
# (default: the repository's release build, .build/release, where
# `swift build -c release` puts libgstrlbarcode.so), and defines helpers.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MEDIA="$ROOT/pipelines/media"
export GST_PLUGIN_PATH="${GST_PLUGIN_PATH:-$ROOT/.build/release}"

# Stops with a message unless gst-launch-1.0 can create the rlbarcode element.
require_rlbarcode() {
    if ! command -v gst-launch-1.0 >/dev/null 2>&1; then
        echo "$(basename "$0"): gst-launch-1.0 is missing (bash scripts/setup.sh installs it)" >&2
        exit 1
    fi
    if ! gst-inspect-1.0 --exists --atleast-version=0.0 rlbarcode; then
        echo "$(basename "$0"): the rlbarcode element is not found on GST_PLUGIN_PATH=$GST_PLUGIN_PATH" >&2
        echo "  build it first: swift build -c release --disable-local-rpath   (in $ROOT)" >&2
        exit 1
    fi
}

# The line OpenH264 prints when openh264enc drains at end of stream: the
# element then asks for frames with no picture, which the library refuses
# with this error; every frame is encoded by then. gst_launch drops it.
OPENH264_DRAIN_LINE='CWelsH264SVCEncoder::EncodeFrame(), cmInitParaError'

# Runs gst-launch-1.0 with its standard output line-buffered, so that the
# messages of a live pipeline reach the terminal as they are posted, and its
# standard error without OpenH264's end-of-stream drain line.
gst_launch() {
    local buffered=()
    if command -v stdbuf >/dev/null 2>&1; then buffered=(stdbuf -oL); fi
    "${buffered[@]}" gst-launch-1.0 "$@" 2> >(grep --line-buffered -v -F "$OPENH264_DRAIN_LINE" >&2)
}

# Prints the gst-launch words of an H.264 encoder: x264enc when installed
# (gstreamer1.0-plugins-ugly, what scripts/setup.sh installs), else
# openh264enc (gstreamer1.0-plugins-bad).
h264_encoder() {
    if gst-inspect-1.0 --exists x264enc; then
        echo "x264enc tune=zerolatency bitrate=4000"
    elif gst-inspect-1.0 --exists openh264enc; then
        echo "openh264enc rate-control=bitrate bitrate=4000000"
    else
        echo "$(basename "$0"): no H.264 encoder (install gstreamer1.0-plugins-ugly or gstreamer1.0-plugins-bad)" >&2
        exit 1
    fi
}

# Reads `gst-launch-1.0 -m` output on stdin and prints one short line per
# `barcode` message: time, type, symbol, add-on, tracking id. Every other
# line is dropped. Set RLBARCODE_RAW_MESSAGES=1 to see the whole messages.
barcode_messages() {
    if [ "${RLBARCODE_RAW_MESSAGES:-0}" = 1 ]; then
        grep --line-buffered -F '(element): barcode, ' || true
        return 0
    fi
    # mawk (Debian's default awk) reads a pipe in large blocks unless told
    # to be interactive; gawk reads lines as they come.
    local awk_opts=()
    if awk -W version 2>&1 | grep -q mawk; then awk_opts=(-W interactive); fi
    awk "${awk_opts[@]}" '
    function field(line, key,    v) {
        if (!match(line, " " key "=\\([a-zA-Z0-9_]+\\)")) return ""
        v = substr(line, RSTART + RLENGTH)
        if (substr(v, 1, 1) == "\"") { v = substr(v, 2); sub(/".*/, "", v) }
        else sub(/[,;].*/, "", v)
        return v
    }
    /\(element\): barcode, / {
        ts = field($0, "timestamp")
        line = sprintf("barcode %9.3fs  %-8s %s", ts / 1e9, field($0, "type"), field($0, "symbol"))
        addon = field($0, "addon"); if (addon != "") line = line " +" addon
        id = field($0, "id"); if (id != "") line = line "  id=" id
        print line
        fflush()
    }'
}

# usage_or_go MIN LAST "$@": with fewer than MIN words, or -h/--help first,
# prints the calling script's header (lines 2 to LAST, without "# ") and
# exits: 0 when help was asked for, 2 for too few words.
usage_or_go() {
    local min="$1" last="$2"
    shift 2
    if [ $# -lt "$min" ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
        sed -n "2,${last}p" "$0" | sed 's/^# \{0,1\}//'
        if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then exit 0; fi
        exit 2
    fi
}
