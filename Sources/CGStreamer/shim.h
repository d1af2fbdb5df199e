#ifndef RLBARCODE_CGSTREAMER_SHIM_H
#define RLBARCODE_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include <gst/app/gstappsink.h>
#include "cpu.h"

/* A plugin that refuses to load (its init fails), for a build this CPU
 * cannot run (rlbarcode_cpu_check): plain C, so that the plugin's entry
 * point runs no instruction of the build's level before the check. */
static inline gboolean rlbarcode_refuse_init(GstPlugin *plugin) {
    (void)plugin;
    return FALSE;
}
static inline const GstPluginDesc *rlbarcode_refusing_desc(void) {
    static GstPluginDesc desc = {
        1, 22, "rlbarcode", "Finds and decodes barcodes in live video (not loaded: see the message on stderr)",
        rlbarcode_refuse_init, "0.1.0", "MIT/X11", "rlbarcode", "rlbarcode", "rlbarcode", NULL, {NULL}};
    return &desc;
}
#endif
