// Publishing a camera: an output stream that is a Video/Source node with the Camera role,
// driving its own graph cycles, one per frame pushed.
//
// The pushing thread never waits on PipeWire: it copies the frame into a one-frame slot
// (a try-lock; a busy slot drops the frame) and wakes the loop thread, which asks the graph
// for a cycle (pw_stream_trigger_process); in the cycle the loop thread copies the slot
// into a free buffer of the stream, or drops it when every buffer is still with consumers.
#include "Private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct OCPWPublisher {
    OCPWContext *context;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    struct spa_source *wake;
    OCPWStateCallback state;
    void *user;
    int32_t width, height;
    atomic_int format;
    atomic_int streaming;
    atomic_uint_fast64_t sent;
    atomic_uint_fast64_t dropped;
    // The slot: one frame in the negotiated format, contiguous planes.
    pthread_mutex_t slot_lock;
    uint8_t *slot;
    size_t slot_capacity;
    size_t slot_size;
    int32_t slot_stride;
    int slot_full;
    int64_t slot_pts;
    uint64_t slot_sequence;
};

static size_t frame_bytes(int32_t format, int32_t width, int32_t height) {
    int32_t row_bytes[4], rows[4];
    int planes = ocpw_layout(format, width, height, row_bytes, rows);
    size_t total = 0;
    for (int i = 0; i < planes; i++) total += (size_t)row_bytes[i] * (size_t)rows[i];
    return total;
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    (void)old;
    OCPWPublisher *publisher = data;
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
    default:
        break;
    }
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    OCPWPublisher *publisher = data;
    if (id != SPA_PARAM_Format) return;
    OCPWMode mode;
    if (param == NULL || !ocpw_mode_from_format(param, &mode)) {
        atomic_store(&publisher->format, OCPW_FORMAT_UNKNOWN);
        return;
    }
    int32_t row_bytes[4], rows[4];
    ocpw_layout(mode.format, publisher->width, publisher->height, row_bytes, rows);
    size_t size = frame_bytes(mode.format, publisher->width, publisher->height);
    pthread_mutex_lock(&publisher->slot_lock);
    publisher->slot_size = size;
    publisher->slot_stride = row_bytes[0];
    publisher->slot_full = 0;
    pthread_mutex_unlock(&publisher->slot_lock);
    atomic_store(&publisher->format, mode.format);
    // Buffers of one memfd block each, the whole frame in it, mappable by any consumer.
    uint8_t buffer[512];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(
        &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 8),
        SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size, SPA_POD_Int((int32_t)size), SPA_PARAM_BUFFERS_stride,
        SPA_POD_Int(row_bytes[0]), SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
                                           SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(publisher->stream, params, 2);
}

/// A graph cycle: the slot's frame into a free buffer.
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
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
        return;
    }
    struct spa_data *d = &buffer->buffer->datas[0];
    if (d->data == NULL || d->maxsize < publisher->slot_size) {
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
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

/// The pushing thread woke the loop: run a graph cycle for the slot's frame.
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
    uint8_t *slot = malloc(capacity);
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
    int result = pw_stream_connect(publisher->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                                   PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_ALLOC_BUFFERS, params, 1);
    if (result >= 0) result = ocpw_roundtrip(context);
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

int32_t ocpw_publisher_push(OCPWPublisher *publisher, int32_t format, const OCPWFrame *frame) {
    // Nobody reads the node: nothing is lost, nothing counted.
    if (!atomic_load(&publisher->streaming)) return 0;
    if (format != atomic_load(&publisher->format) || pthread_mutex_trylock(&publisher->slot_lock) != 0) {
        atomic_fetch_add(&publisher->dropped, 1);
        return 0;
    }
    int32_t row_bytes[4], rows[4];
    int planes = ocpw_layout(format, publisher->width, publisher->height, row_bytes, rows);
    if (planes != frame->planes || format != atomic_load(&publisher->format)) {
        pthread_mutex_unlock(&publisher->slot_lock);
        atomic_fetch_add(&publisher->dropped, 1);
        return 0;
    }
    // A frame still waiting is replaced: the consumers are behind.
    if (publisher->slot_full) atomic_fetch_add(&publisher->dropped, 1);
    uint8_t *to = publisher->slot;
    for (int p = 0; p < planes; p++) {
        for (int32_t row = 0; row < rows[p]; row++) memcpy(to + (size_t)row * row_bytes[p], frame->data[p] + (size_t)row * frame->stride[p], row_bytes[p]);
        to += (size_t)row_bytes[p] * rows[p];
    }
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
