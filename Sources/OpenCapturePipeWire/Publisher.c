// Publishing a camera: an output stream that is a Video/Source node with the Camera role and
// the driver of the graph its consumers join, one graph cycle per frame pushed.
//
// The pushing thread never waits on PipeWire: it copies the frame into a one-frame slot
// (a try-lock; a busy slot drops the frame) and wakes the loop thread, which asks for a
// cycle (pw_stream_trigger_process, as PipeWire's video-src example does from its timer).
// The stream's process callback then runs on the loop thread and copies the slot into a
// free buffer, or drops the frame when every buffer is still with consumers.
//
// Two things the stream must not be asked for: PW_STREAM_FLAG_ALLOC_BUFFERS (the stream
// would then expect this code to give each buffer its memory in add_buffer: without that
// the buffers have none), and being a follower of the daemon's driver (a stream that does
// not drive is only run when its driver schedules it, and the frames of a camera come when
// they come). The buffers' memory is the daemon's memfd, mapped by MAP_BUFFERS.
#include "Private.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct OCPWPublisher {
    OCPWContext *context;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    struct spa_source *wake;
    OCPWStateCallback state;
    void *user;
    int32_t width, height;
    /// Set by the loop thread once the stream has left "connecting" (its node exists).
    int settled;
    atomic_int format;
    atomic_int streaming;
    atomic_uint_fast64_t sent;
    atomic_uint_fast64_t dropped;
    // The slot: one frame in the negotiated format, in `layout`.
    pthread_mutex_t slot_lock;
    uint8_t *slot;
    size_t slot_capacity;
    size_t slot_size;
    int32_t slot_stride;
    int slot_full;
    int64_t slot_pts;
    uint64_t slot_sequence;
};

/// A frame's planes as the publisher sends them: one after the other in one block, each row
/// padded to 4 bytes (GStreamer's default video layout, which readers assume when a buffer
/// carries no per-plane offsets). The plane count, 0 for a format not published.
static int layout(int32_t format, int32_t width, int32_t height, int32_t stride[4], int32_t rows[4], int32_t visible[4]) {
    int32_t chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    int planes;
    switch (format) {
    case OCPW_FORMAT_NV12:
        visible[0] = width, rows[0] = height;
        visible[1] = chroma_width * 2, rows[1] = chroma_height;
        planes = 2;
        break;
    case OCPW_FORMAT_I420:
        visible[0] = width, rows[0] = height;
        visible[1] = visible[2] = chroma_width;
        rows[1] = rows[2] = chroma_height;
        planes = 3;
        break;
    case OCPW_FORMAT_YUY2:
    case OCPW_FORMAT_UYVY:
        visible[0] = chroma_width * 4, rows[0] = height;
        planes = 1;
        break;
    case OCPW_FORMAT_RGB:
    case OCPW_FORMAT_BGR:
        visible[0] = width * 3, rows[0] = height;
        planes = 1;
        break;
    case OCPW_FORMAT_BGRx:
    case OCPW_FORMAT_BGRA:
        visible[0] = width * 4, rows[0] = height;
        planes = 1;
        break;
    default:
        return 0;
    }
    for (int p = 0; p < planes; p++) stride[p] = (visible[p] + 3) & ~3;
    return planes;
}

static size_t frame_bytes(int32_t format, int32_t width, int32_t height) {
    int32_t stride[4], rows[4], visible[4];
    int planes = layout(format, width, height, stride, rows, visible);
    size_t total = 0;
    for (int i = 0; i < planes; i++) total += (size_t)stride[i] * (size_t)rows[i];
    return total;
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    (void)old;
    OCPWPublisher *publisher = data;
    if (state != PW_STREAM_STATE_CONNECTING && !publisher->settled) {
        publisher->settled = 1;
        pw_thread_loop_signal(publisher->context->loop, false);
    }
    switch (state) {
    case PW_STREAM_STATE_STREAMING:
        atomic_store(&publisher->streaming, 1);
        if (publisher->state != NULL) publisher->state(publisher->user, OCPW_STATE_STREAMING, "streaming");
        break;
    case PW_STREAM_STATE_PAUSED:
        if (atomic_exchange(&publisher->streaming, 0) && publisher->state != NULL)
            publisher->state(publisher->user, OCPW_STATE_PAUSED, "paused");
        break;
    case PW_STREAM_STATE_ERROR:
        atomic_store(&publisher->streaming, 0);
        if (publisher->state != NULL) publisher->state(publisher->user, OCPW_STATE_ERROR, error != NULL ? error : "stream error");
        break;
    case PW_STREAM_STATE_UNCONNECTED:
        // The daemon removed the node (this code removes the listener before it does).
        atomic_store(&publisher->streaming, 0);
        if (publisher->state != NULL) publisher->state(publisher->user, OCPW_STATE_DISCONNECTED, "the node was removed");
        break;
    default:
        break;
    }
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    OCPWPublisher *publisher = data;
    if (id != SPA_PARAM_Format) return;
    OCPWMode mode;
    // No format (the last consumer left) or one not published: nothing is taken until the
    // next consumer negotiates.
    if (param == NULL || !ocpw_mode_from_format(param, &mode) || mode.width != publisher->width || mode.height != publisher->height) {
        atomic_store(&publisher->format, OCPW_FORMAT_UNKNOWN);
        return;
    }
    int32_t stride[4], rows[4], visible[4];
    layout(mode.format, publisher->width, publisher->height, stride, rows, visible);
    size_t size = frame_bytes(mode.format, publisher->width, publisher->height);
    pthread_mutex_lock(&publisher->slot_lock);
    publisher->slot_size = size;
    publisher->slot_stride = stride[0];
    publisher->slot_full = 0;
    pthread_mutex_unlock(&publisher->slot_lock);
    atomic_store(&publisher->format, mode.format);
    // Buffers of one block each holding the whole frame, in memory every consumer can map
    // (a memfd, or plain memory for one in this process), and the header that carries each
    // frame's time and sequence.
    uint8_t buffer[512];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16),
        SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size, SPA_POD_Int((int32_t)size), SPA_PARAM_BUFFERS_stride,
        SPA_POD_Int(stride[0]), SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
                                           SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(publisher->stream, params, 2);
}

/// The cycle a push asked for (loop thread): the slot's frame into a free buffer.
static void on_process(void *data) {
    OCPWPublisher *publisher = data;
    pthread_mutex_lock(&publisher->slot_lock);
    if (!publisher->slot_full) {
        pthread_mutex_unlock(&publisher->slot_lock);
        return;
    }
    publisher->slot_full = 0;
    struct pw_buffer *buffer = pw_stream_dequeue_buffer(publisher->stream);
    if (buffer == NULL) {
        // Every buffer is still with a consumer: it is behind.
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
        return;
    }
    struct spa_data *d = &buffer->buffer->datas[0];
    if (d->data == NULL || d->maxsize < publisher->slot_size) {
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
        d->chunk->size = 0;
        pw_stream_queue_buffer(publisher->stream, buffer);
        return;
    }
    memcpy(d->data, publisher->slot, publisher->slot_size);
    d->chunk->offset = 0;
    d->chunk->size = (uint32_t)publisher->slot_size;
    d->chunk->stride = publisher->slot_stride;
    d->chunk->flags = 0;
    struct spa_meta_header *header = spa_buffer_find_meta_data(buffer->buffer, SPA_META_Header, sizeof *header);
    if (header != NULL) {
        header->pts = publisher->slot_pts;
        header->seq = publisher->slot_sequence;
        header->flags = 0;
        header->offset = 0;
        header->dts_offset = 0;
    }
    pthread_mutex_unlock(&publisher->slot_lock);
    pw_stream_queue_buffer(publisher->stream, buffer);
    atomic_fetch_add(&publisher->sent, 1);
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .param_changed = on_param_changed,
    .process = on_process,
};

/// A push woke the loop: run a graph cycle for the slot's frame. The stream drives its
/// consumers' graph, so the cycle runs now: process above, then the consumers.
static void on_wake(void *data, uint64_t count) {
    (void)count;
    OCPWPublisher *publisher = data;
    if (atomic_load(&publisher->streaming)) pw_stream_trigger_process(publisher->stream);
}

OCPWPublisher *ocpw_publisher_create(OCPWContext *context, const char *name, const char *description, const int32_t *formats,
                                     int32_t format_count, int32_t width, int32_t height, int32_t rate_num, int32_t rate_den,
                                     OCPWStateCallback state, void *user, char *error, size_t error_capacity) {
    if (format_count < 1 || width < 2 || height < 2 || rate_num < 1 || rate_den < 1) {
        ocpw_fail(error, error_capacity, "no format, size or rate to publish");
        return NULL;
    }
    size_t capacity = 0;
    for (int32_t i = 0; i < format_count; i++) {
        size_t bytes = frame_bytes(formats[i], width, height);
        if (bytes == 0) {
            ocpw_fail(error, error_capacity, "format %d cannot be published", formats[i]);
            return NULL;
        }
        if (bytes > capacity) capacity = bytes;
    }
    OCPWPublisher *publisher = calloc(1, sizeof *publisher);
    // Zeroed: the padding at the end of each row stays zero.
    uint8_t *slot = calloc(1, capacity);
    if (publisher == NULL || slot == NULL) {
        free(publisher);
        free(slot);
        ocpw_fail(error, error_capacity, "out of memory");
        return NULL;
    }
    publisher->context = context;
    publisher->state = state;
    publisher->user = user;
    publisher->width = width;
    publisher->height = height;
    publisher->slot = slot;
    publisher->slot_capacity = capacity;
    pthread_mutex_init(&publisher->slot_lock, NULL);

    pw_thread_loop_lock(context->loop);
    if (context->broken) {
        pw_thread_loop_unlock(context->loop);
        ocpw_fail(error, error_capacity, "the PipeWire daemon is gone");
        ocpw_publisher_destroy(publisher);
        return NULL;
    }
    char pid[16], rate[32];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    snprintf(rate, sizeof rate, "%d/%d", rate_den, rate_num);
    struct pw_properties *props = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Source", PW_KEY_MEDIA_CLASS, "Video/Source", PW_KEY_MEDIA_ROLE, "Camera",
        PW_KEY_NODE_NAME, name, PW_KEY_NODE_DESCRIPTION, description != NULL ? description : name, PW_KEY_APP_NAME, "OpenCapture",
        PW_KEY_NODE_LATENCY, rate, "opencapture.publisher.pid", pid, NULL);
    publisher->stream = pw_stream_new(context->core, name, props);
    publisher->wake = pw_loop_add_event(pw_thread_loop_get_loop(context->loop), on_wake, publisher);
    if (publisher->stream == NULL || publisher->wake == NULL) {
        pw_thread_loop_unlock(context->loop);
        ocpw_fail(error, error_capacity, "could not create a PipeWire stream");
        ocpw_publisher_destroy(publisher);
        return NULL;
    }
    pw_stream_add_listener(publisher->stream, &publisher->stream_listener, &stream_events, publisher);
    uint8_t buffer[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[1] = {ocpw_build_enum_format(&b, formats, format_count, width, height, rate_num, rate_den, 1)};
    int result = pw_stream_connect(publisher->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY, PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS,
                                   params, 1);
    // The node exists once the stream leaves "connecting" (up to five seconds).
    struct timespec deadline;
    pw_thread_loop_get_time(context->loop, &deadline, 5 * SPA_NSEC_PER_SEC);
    while (result >= 0 && !publisher->settled && !context->broken) {
        if (pw_thread_loop_timed_wait_full(context->loop, &deadline) != 0) result = -ETIMEDOUT;
    }
    if (result >= 0 && context->broken) result = -EPIPE;
    if (result >= 0 && pw_stream_get_state(publisher->stream, NULL) == PW_STREAM_STATE_ERROR) result = -EIO;
    pw_thread_loop_unlock(context->loop);
    if (result < 0) {
        ocpw_fail(error, error_capacity, "could not publish the node (%s)", strerror(-result));
        ocpw_publisher_destroy(publisher);
        return NULL;
    }
    return publisher;
}

uint32_t ocpw_publisher_node_id(OCPWPublisher *publisher) {
    pw_thread_loop_lock(publisher->context->loop);
    uint32_t id = pw_stream_get_node_id(publisher->stream);
    pw_thread_loop_unlock(publisher->context->loop);
    return id == SPA_ID_INVALID ? 0 : id;
}

int32_t ocpw_publisher_format(OCPWPublisher *publisher) { return atomic_load(&publisher->format); }

/// Copies the plane rows of `frame` (in `format`) into the slot as `to` lays them out.
static void copy_planes(OCPWPublisher *publisher, int32_t format, const OCPWFrame *frame) {
    int32_t stride[4], rows[4], visible[4];
    int planes = layout(format, publisher->width, publisher->height, stride, rows, visible);
    uint8_t *to = publisher->slot;
    for (int p = 0; p < planes; p++) {
        for (int32_t row = 0; row < rows[p]; row++)
            memcpy(to + (size_t)row * stride[p], frame->data[p] + (size_t)row * frame->stride[p], (size_t)visible[p]);
        to += (size_t)stride[p] * rows[p];
    }
}

/// An NV12 frame into the slot as I420 (chroma split) or YUY2 (the chroma of a row pair
/// shared by both rows), for consumers that negotiated those.
static void copy_from_nv12(OCPWPublisher *publisher, int32_t to_format, const OCPWFrame *frame) {
    int32_t stride[4], rows[4], visible[4];
    layout(to_format, publisher->width, publisher->height, stride, rows, visible);
    int32_t width = publisher->width, height = publisher->height;
    int32_t chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    uint8_t *slot = publisher->slot;
    if (to_format == OCPW_FORMAT_I420) {
        uint8_t *u = slot + (size_t)stride[0] * rows[0], *v = u + (size_t)stride[1] * rows[1];
        for (int32_t row = 0; row < height; row++)
            memcpy(slot + (size_t)row * stride[0], frame->data[0] + (size_t)row * frame->stride[0], (size_t)width);
        for (int32_t row = 0; row < chroma_height; row++) {
            const uint8_t *uv = frame->data[1] + (size_t)row * frame->stride[1];
            uint8_t *u_row = u + (size_t)row * stride[1], *v_row = v + (size_t)row * stride[2];
            for (int32_t x = 0; x < chroma_width; x++) {
                u_row[x] = uv[2 * x];
                v_row[x] = uv[2 * x + 1];
            }
        }
        return;
    }
    for (int32_t row = 0; row < height; row++) {
        const uint8_t *y = frame->data[0] + (size_t)row * frame->stride[0];
        const uint8_t *uv = frame->data[1] + (size_t)(row / 2) * frame->stride[1];
        uint8_t *out = slot + (size_t)row * stride[0];
        for (int32_t x = 0; x < chroma_width; x++) {
            out[4 * x] = y[2 * x];
            out[4 * x + 1] = uv[2 * x];
            out[4 * x + 2] = 2 * x + 1 < width ? y[2 * x + 1] : y[2 * x];
            out[4 * x + 3] = uv[2 * x + 1];
        }
    }
}

int32_t ocpw_publisher_push(OCPWPublisher *publisher, int32_t format, const OCPWFrame *frame) {
    // Nobody reads the node: nothing is lost, nothing counted.
    if (!atomic_load(&publisher->streaming)) return 0;
    if (pthread_mutex_trylock(&publisher->slot_lock) != 0) {
        atomic_fetch_add(&publisher->dropped, 1);
        return 0;
    }
    int32_t negotiated = atomic_load(&publisher->format);
    int32_t stride[4], rows[4], visible[4];
    int planes = layout(format, publisher->width, publisher->height, stride, rows, visible);
    int converts = format == OCPW_FORMAT_NV12 && (negotiated == OCPW_FORMAT_I420 || negotiated == OCPW_FORMAT_YUY2);
    if (planes == 0 || planes != frame->planes || (format != negotiated && !converts)) {
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
        return 0;
    }
    // A frame still waiting is replaced: the loop thread is behind.
    if (publisher->slot_full) atomic_fetch_add(&publisher->dropped, 1);
    if (converts)
        copy_from_nv12(publisher, negotiated, frame);
    else
        copy_planes(publisher, format, frame);
    publisher->slot_pts = frame->pts;
    publisher->slot_sequence = (uint64_t)frame->sequence;
    publisher->slot_full = 1;
    pthread_mutex_unlock(&publisher->slot_lock);
    pw_loop_signal_event(pw_thread_loop_get_loop(publisher->context->loop), publisher->wake);
    return 1;
}

uint64_t ocpw_publisher_sent(OCPWPublisher *publisher) { return atomic_load(&publisher->sent); }
uint64_t ocpw_publisher_dropped(OCPWPublisher *publisher) { return atomic_load(&publisher->dropped); }

void ocpw_publisher_destroy(OCPWPublisher *publisher) {
    if (publisher == NULL) return;
    OCPWContext *context = publisher->context;
    pw_thread_loop_lock(context->loop);
    if (publisher->stream != NULL) {
        if (publisher->stream_listener.link.next != NULL) spa_hook_remove(&publisher->stream_listener);
        pw_stream_destroy(publisher->stream);
    }
    if (publisher->wake != NULL) pw_loop_destroy_source(pw_thread_loop_get_loop(context->loop), publisher->wake);
    pw_thread_loop_unlock(context->loop);
    pthread_mutex_destroy(&publisher->slot_lock);
    free(publisher->slot);
    free(publisher);
}
