// FFmpeg 5.1 (Debian 12): demuxing and decoding (libswscale converting) for the asset reader; muxing MP4, encoding H.264 through libx264 and HEVC through libx265; live streams (rtsp, mpegts over libsrt, flv over rtmp) through libavformat's network protocols.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>

// AVERROR and friends are function-like macros Swift cannot import.
static inline int cffmpeg_averror(int errnum) { return AVERROR(errnum); }
static inline int cffmpeg_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_invaliddata(void) { return AVERROR_INVALIDDATA; }
