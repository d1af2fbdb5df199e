#ifndef RLBARCODE_CGSTREAMER_SHIM_H
#define RLBARCODE_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include <gst/app/gstappsink.h>
#endif
