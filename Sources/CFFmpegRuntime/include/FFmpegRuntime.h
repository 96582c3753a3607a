#ifndef OPENCAPTURE_FFMPEG_RUNTIME_H
#define OPENCAPTURE_FFMPEG_RUNTIME_H

#include <stddef.h>

/// Loads libavutil, libavcodec, libavformat and libswscale (the sonames the headers were built for)
/// the first time it is called; later calls return the first call's answer.
/// Returns 0 when FFmpeg is ready, else -1 with the reason in `message`.
int oc_ffmpeg_load(char *message, size_t size);

#endif
