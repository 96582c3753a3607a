// FFmpeg, loaded when first used rather than when the program starts.
//
// libswscale converts decoded frames to the pixel formats the asset reader hands out.
//
// Why: Debian's libavformat and libavcodec pull in about 135 shared libraries (every codec,
// network and hardware library FFmpeg was built with). Linking them made every process
// that uses OpenCapture, the `capture` tool among them, spend about 50 ms in the dynamic
// loader before main, whether or not it ever writes a movie (docs/PERFORMANCE.md). Here
// the package defines the FFmpeg functions MediaIO calls, each forwarding to the real one,
// which dlopen/dlsym find on first use; the headers are FFmpeg's own, so a signature that
// drifted from them fails to compile.
//
// A function MediaIO starts calling needs a line in OC_FFMPEG_FUNCTIONS below (the link
// fails with an undefined symbol until it has one).

#include "FFmpegRuntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/rational.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>

enum { OC_AVUTIL, OC_AVCODEC, OC_AVFORMAT, OC_SWSCALE, OC_LIBRARY_COUNT };

static const char *const library_names[OC_LIBRARY_COUNT] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
};

// F(library, return type, name, parameters, arguments) for functions that return a value;
// V(library, name, parameters, arguments) for void ones.
#define OC_FFMPEG_FUNCTIONS(F, V)                                                                                  \
    F(OC_AVUTIL, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src))       \
    V(OC_AVUTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    F(OC_AVUTIL, AVRational, av_d2q, (double d, int max), (d, max))                                                \
    F(OC_AVUTIL, AVDictionaryEntry *, av_dict_get,                                                                  \
      (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags))   \
    F(OC_AVUTIL, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix))                             \
    V(OC_AVUTIL, av_frame_unref, (AVFrame *frame), (frame))                                                        \
    F(OC_AVUTIL, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))                    \
    F(OC_AVUTIL, int, av_sample_fmt_is_planar, (enum AVSampleFormat sample_fmt), (sample_fmt))                     \
    F(OC_AVUTIL, int, av_dict_count, (const AVDictionary *m), (m))                                                 \
    V(OC_AVUTIL, av_dict_free, (AVDictionary **m), (m))                                                            \
    F(OC_AVUTIL, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags),             \
      (pm, key, value, flags))                                                                                     \
    V(OC_AVUTIL, av_display_rotation_set, (int32_t matrix[9], double angle), (matrix, angle))                      \
    F(OC_AVUTIL, AVFrame *, av_frame_alloc, (void), ())                                                            \
    V(OC_AVUTIL, av_frame_free, (AVFrame **frame), (frame))                                                        \
    F(OC_AVUTIL, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align))                            \
    F(OC_AVUTIL, int, av_frame_make_writable, (AVFrame *frame), (frame))                                           \
    V(OC_AVUTIL, av_image_copy_plane,                                                                              \
      (uint8_t *dst, int dst_linesize, const uint8_t *src, int src_linesize, int bytewidth, int height),           \
      (dst, dst_linesize, src, src_linesize, bytewidth, height))                                                   \
    F(OC_AVUTIL, int, av_log_get_level, (void), ())                                                                \
    F(OC_AVUTIL, int, av_log_format_line2,                                                                         \
      (void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix),           \
      (ptr, level, fmt, vl, line, line_size, print_prefix))                                                        \
    V(OC_AVUTIL, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))          \
    V(OC_AVUTIL, av_log_set_level, (int level), (level))                                                           \
    F(OC_AVUTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))  \
    F(OC_AVCODEC, AVPacket *, av_packet_alloc, (void), ())                                                         \
    F(OC_AVCODEC, int, av_new_packet, (AVPacket *pkt, int size), (pkt, size))                                      \
    V(OC_AVCODEC, av_packet_free, (AVPacket **pkt), (pkt))                                                         \
    V(OC_AVCODEC, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst),                     \
      (pkt, tb_src, tb_dst))                                                                                       \
    V(OC_AVCODEC, av_packet_unref, (AVPacket *pkt), (pkt))                                                         \
    V(OC_AVCODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx))                                          \
    F(OC_AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                \
    F(OC_AVCODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id))                                       \
    F(OC_AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),       \
      (codec, par))                                                                                                \
    F(OC_AVCODEC, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src)) \
    F(OC_AVCODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))        \
    F(OC_AVCODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))             \
    F(OC_AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                       \
    F(OC_AVCODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))                       \
    V(OC_AVCODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx))                                         \
    F(OC_AVCODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),       \
      (avctx, codec, options))                                                                                     \
    F(OC_AVCODEC, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec),     \
      (par, codec))                                                                                                \
    F(OC_AVCODEC, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt))           \
    F(OC_AVCODEC, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame))          \
    F(OC_AVFORMAT, uint8_t *, av_stream_get_side_data,                                                             \
      (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))               \
    F(OC_AVFORMAT, enum AVCodecID, av_codec_get_id, (const struct AVCodecTag *const *tags, unsigned int tag), (tags, tag)) \
    F(OC_AVFORMAT, const AVInputFormat *, av_probe_input_format, (const AVProbeData *pd, int is_opened),         \
      (pd, is_opened))                                                                                             \
    F(OC_AVFORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))                              \
    V(OC_AVFORMAT, avformat_close_input, (AVFormatContext **s), (s))                                               \
    F(OC_AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))   \
    F(OC_AVFORMAT, int, avformat_open_input,                                                                       \
      (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),                  \
      (ps, url, fmt, options))                                                                                     \
    F(OC_AVFORMAT, int, avformat_seek_file,                                                                        \
      (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags),               \
      (s, stream_index, min_ts, ts, max_ts, flags))                                                                \
    F(OC_AVFORMAT, uint8_t *, av_stream_new_side_data, (AVStream *stream, enum AVPacketSideDataType type, size_t size), \
      (stream, type, size))                                                                                        \
    F(OC_AVFORMAT, int, av_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))                             \
    F(OC_AVFORMAT, int, av_write_trailer, (AVFormatContext *s), (s))                                               \
    F(OC_AVFORMAT, int, avformat_alloc_output_context2,                                                            \
      (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),       \
      (ctx, oformat, format_name, filename))                                                                       \
    V(OC_AVFORMAT, avformat_free_context, (AVFormatContext *s), (s))                                               \
    F(OC_AVFORMAT, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))                \
    F(OC_AVFORMAT, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))         \
    F(OC_AVFORMAT, int, avio_closep, (AVIOContext **s), (s))                                                       \
    V(OC_AVFORMAT, avio_flush, (AVIOContext *s), (s))                                                              \
    F(OC_AVFORMAT, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags))                 \
    F(OC_AVFORMAT, int, avio_open2,                                                                                \
      (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, AVDictionary **options),        \
      (s, url, flags, int_cb, options))                                                                            \
    F(OC_AVFORMAT, int, avformat_network_init, (void), ())                                                         \
    F(OC_AVFORMAT, int64_t, avio_seek, (AVIOContext *s, int64_t offset, int whence), (s, offset, whence))       \
    V(OC_SWSCALE, sws_freeContext, (struct SwsContext *context), (context))                                        \
    F(OC_SWSCALE, const int *, sws_getCoefficients, (int colorspace), (colorspace))                                \
    F(OC_SWSCALE, struct SwsContext *, sws_getContext,                                                             \
      (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat,         \
       int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),                                \
      (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))                          \
    F(OC_SWSCALE, int, sws_scale,                                                                                  \
      (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY,                \
       int srcSliceH, uint8_t *const dst[], const int dstStride[]),                                                \
      (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))                                              \
    F(OC_SWSCALE, int, sws_setColorspaceDetails,                                                                   \
      (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange,               \
       int brightness, int contrast, int saturation),                                                              \
      (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))

// The real functions, found by dlsym.
#define OC_POINTER(library, type, name, parameters, arguments) static type(*real_##name) parameters;
#define OC_POINTER_VOID(library, name, parameters, arguments) static void(*real_##name) parameters;
OC_FFMPEG_FUNCTIONS(OC_POINTER, OC_POINTER_VOID)

struct symbol {
    int library;
    const char *name;
    void **pointer;
};

#define OC_SYMBOL(library, type, name, parameters, arguments) {library, #name, (void **)&real_##name},
#define OC_SYMBOL_VOID(library, name, parameters, arguments) {library, #name, (void **)&real_##name},
static const struct symbol symbols[] = {OC_FFMPEG_FUNCTIONS(OC_SYMBOL, OC_SYMBOL_VOID)};

// FFmpeg's log goes through OpenCapture's: to standard error, each line prefixed
// "OpenCapture: FFmpeg: ", and quiet unless OPENCAPTURE_FFMPEG_LOG names a level (quiet,
// panic, fatal, error, warning, info, verbose, debug, trace). Without it a damaged file
// printed hundreds of "[h264 @ 0x...]" lines before the one-line error the caller reports.
static int log_level_named(const char *name) {
    static const struct { const char *name; int level; } levels[] = {
        {"quiet", AV_LOG_QUIET},   {"panic", AV_LOG_PANIC}, {"fatal", AV_LOG_FATAL},
        {"error", AV_LOG_ERROR},   {"warning", AV_LOG_WARNING}, {"info", AV_LOG_INFO},
        {"verbose", AV_LOG_VERBOSE}, {"debug", AV_LOG_DEBUG}, {"trace", AV_LOG_TRACE},
    };
    for (size_t index = 0; name != NULL && index < sizeof levels / sizeof levels[0]; index++) {
        if (strcasecmp(name, levels[index].name) == 0) return levels[index].level;
    }
    return AV_LOG_QUIET;
}

// Text from a file (metadata, a codec's complaint quoting its data) reaches the log: every
// control character but a final newline becomes '?', as FFmpeg's own callback does, so a
// hostile file cannot send escape sequences to the terminal.
static void sanitize(char *line) {
    size_t length = strlen(line);
    for (size_t index = 0; index < length; index++) {
        unsigned char byte = (unsigned char)line[index];
        if (byte == '\n' && index + 1 == length) break;
        if (byte < 0x20 || byte == 0x7F) line[index] = '?';
    }
}

static void log_line(void *object, int level, const char *format, va_list arguments) {
    // The level FFmpeg is set to now: MediaIO may lower it (a stream's retries).
    if ((level & 0xff) > real_av_log_get_level()) return;
    // A line may come in pieces; the prefix goes before the first piece of each.
    static _Thread_local int print_prefix = 1;
    int starts_line = print_prefix;
    char line[1024];
    real_av_log_format_line2(object, level & 0xff, format, arguments, line, sizeof line, &print_prefix);
    sanitize(line);
    fprintf(stderr, "%s%s", starts_line ? "OpenCapture: FFmpeg: " : "", line);
}

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_message[512];

static void load(void) {
    void *handles[OC_LIBRARY_COUNT];
    for (int index = 0; index < OC_LIBRARY_COUNT; index++) {
        // RTLD_LOCAL: FFmpeg's own symbols stay out of the program's global scope, so they
        // never meet the forwarders below.
        handles[index] = dlopen(library_names[index], RTLD_LAZY | RTLD_LOCAL);
        if (handles[index] == NULL) {
            snprintf(load_message, sizeof load_message, "cannot load FFmpeg: %s", dlerror());
            return;
        }
    }
    for (size_t index = 0; index < sizeof symbols / sizeof symbols[0]; index++) {
        void *address = dlsym(handles[symbols[index].library], symbols[index].name);
        if (address == NULL) {
            snprintf(load_message, sizeof load_message, "cannot load FFmpeg: %s has no %s",
                     library_names[symbols[index].library], symbols[index].name);
            return;
        }
        *symbols[index].pointer = address;
    }
    real_av_log_set_level(log_level_named(getenv("OPENCAPTURE_FFMPEG_LOG")));
    real_av_log_set_callback(log_line);
    load_status = 0;
}

int oc_ffmpeg_load(char *message, size_t size) {
    pthread_once(&load_once, load);
    if (load_status != 0 && message != NULL && size > 0) snprintf(message, size, "%s", load_message);
    return load_status;
}

// A forwarder reached before the caller checked oc_ffmpeg_load, with FFmpeg missing: there
// is no way to carry on, so say why.
static void require(void) {
    if (oc_ffmpeg_load(NULL, 0) == 0) return;
    fprintf(stderr, "OpenCapture: %s\n", load_message);
    abort();
}

#define OC_FORWARD(library, type, name, parameters, arguments)                                                     \
    type name parameters {                                                                                         \
        require();                                                                                                 \
        return real_##name arguments;                                                                              \
    }
#define OC_FORWARD_VOID(library, name, parameters, arguments)                                                      \
    void name parameters {                                                                                         \
        require();                                                                                                 \
        real_##name arguments;                                                                                     \
    }
OC_FFMPEG_FUNCTIONS(OC_FORWARD, OC_FORWARD_VOID)
