#ifndef RLBARCODE_CGSTREAMER_SHIM_H
#define RLBARCODE_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include <gst/app/gstappsink.h>
#include "cpu.h"

/* The plugin's description, with `init` as its init function when this
 * CPU runs the build (rlbarcode_cpu_check, which says why on stderr when
 * not), else one that fails, so that the plugin does not load: plain C,
 * so that the plugin's entry point runs no instruction of the build's
 * level before the check. */
static inline gboolean rlbarcode_refuse_init(GstPlugin *plugin) {
    (void)plugin;
    return FALSE;
}
static inline const GstPluginDesc *rlbarcode_plugin_desc(GstPluginInitFunc init) {
    static GstPluginDesc desc = {
        1, 22, "rlbarcode", "Finds and decodes barcodes in live video", NULL, "0.1.0", "MIT/X11",
        "rlbarcode", "rlbarcode", "rlbarcode", NULL, {NULL}};
    if (desc.plugin_init == NULL) desc.plugin_init = rlbarcode_cpu_check("rlbarcode") ? init : rlbarcode_refuse_init;
    return &desc;
}
#endif
