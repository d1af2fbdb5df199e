/* Reads barcodes from a video with the rlbarcode element, in a C application.
 *
 * The pipeline is
 *
 *     filesrc ! decodebin ! videoconvert ! rlbarcode ! appsink
 *
 * The application reads two things:
 *  - the "barcode" element messages on the bus (one per code when it comes
 *    into view), and
 *  - the region-of-interest metadata on every buffer the appsink hands over
 *    (one GstVideoRegionOfInterestMeta of type "barcode" per code in the
 *    frame, with a "barcode" params structure).
 *
 * It prints one line per message and one per meta:
 *
 *     message 0.000s EAN-13 5901234123457 id=1
 *     meta    0.000s EAN-13 5901234123457 id=1 box=17,121 381x180
 *
 * Build:
 *     gcc -o scan_appsink scan_appsink.c \
 *         $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-video-1.0 gstreamer-app-1.0)
 * Run:
 *     GST_PLUGIN_PATH=/path/to/folder/of/libgstrlbarcode.so ./scan_appsink VIDEO [MAX_FRAMES]
 */
#include <stdio.h>
#include <stdlib.h>

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

/* A GStreamer time as seconds, for printing. */
static double
seconds (GstClockTime t)
{
  return GST_CLOCK_TIME_IS_VALID (t) ? (double) t / GST_SECOND : -1.0;
}

/* Prints a "barcode" message: the same fields a zbar application reads
 * (timestamp, type, symbol) plus rlbarcode's add-on and tracking id. */
static void
print_message (const GstStructure * s)
{
  guint64 timestamp = GST_CLOCK_TIME_NONE;
  guint id = 0;
  const gchar *addon = gst_structure_get_string (s, "addon");

  gst_structure_get_uint64 (s, "timestamp", &timestamp);
  gst_structure_get_uint (s, "id", &id);
  printf ("message %.3fs %s %s%s%s id=%u\n", seconds (timestamp),
      gst_structure_get_string (s, "type"), gst_structure_get_string (s, "symbol"),
      addon && *addon ? " +" : "", addon ? addon : "", id);
}

/* Prints every barcode region-of-interest meta of a buffer. */
static void
print_metas (GstBuffer * buffer)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    GstStructure *params;
    const gchar *addon;

    if (roi->roi_type != g_quark_from_static_string ("barcode"))
      continue;
    params = gst_video_region_of_interest_meta_get_param (roi, "barcode");
    if (params == NULL)
      continue;
    addon = gst_structure_get_string (params, "addon");
    printf ("meta    %.3fs %s %s%s%s id=%d box=%u,%u %ux%u\n",
        seconds (GST_BUFFER_PTS (buffer)), gst_structure_get_string (params, "type"),
        gst_structure_get_string (params, "symbol"), addon ? " +" : "",
        addon ? addon : "", roi->id, roi->x, roi->y, roi->w, roi->h);
  }
}

/* Prints and drops the messages waiting on the bus; returns FALSE after an error. */
static gboolean
drain_bus (GstBus * bus)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      fprintf (stderr, "error: %s\n", err->message);
      g_error_free (err);
      ok = FALSE;
    } else if (gst_structure_has_name (gst_message_get_structure (msg), "barcode")) {
      print_message (gst_message_get_structure (msg));
    }
    gst_message_unref (msg);
  }
  return ok;
}

int
main (int argc, char **argv)
{
  GstElement *pipeline, *src, *sink;
  GstBus *bus;
  GError *error = NULL;
  GstPluginFeature *factory;
  long max_frames = 0, frames = 0;
  int status = 0;

  gst_init (&argc, &argv);
  if (argc < 2) {
    fprintf (stderr, "Usage: %s VIDEO [MAX_FRAMES]\n", argv[0]);
    return 2;
  }
  if (argc > 2)
    max_frames = strtol (argv[2], NULL, 10);

  factory = GST_PLUGIN_FEATURE (gst_element_factory_find ("rlbarcode"));
  if (factory == NULL) {
    fprintf (stderr, "the rlbarcode element is not found: set GST_PLUGIN_PATH "
        "to the folder of libgstrlbarcode.so\n");
    return 1;
  }
  gst_object_unref (factory);

  pipeline = gst_parse_launch ("filesrc name=src ! decodebin ! videoconvert ! rlbarcode "
      "! appsink name=sink sync=false max-buffers=4", &error);
  if (pipeline == NULL) {
    fprintf (stderr, "cannot build the pipeline: %s\n", error->message);
    g_error_free (error);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "location", argv[1], NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND);

    /* A code's message is posted before its buffer leaves the element, so
     * the messages of this frame are on the bus already. */
    if (!drain_bus (bus)) {
      status = 1;
      if (sample)
        gst_sample_unref (sample);
      break;
    }
    if (sample == NULL)         /* end of stream (or nothing for 10 s) */
      break;
    print_metas (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
    frames++;
    if (max_frames > 0 && frames >= max_frames)
      break;
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  printf ("frames %ld\n", frames);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return status;
}
