// Reading a camera node: an input stream in the chosen format, linked to the node by the
// plug-in itself, frames handed to the caller on the loop thread.
#include "Private.h"

#include <linux/dma-buf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

struct OCPWCapture {
    struct ocpw_capture_link entry;
    OCPWContext *context;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    struct pw_proxy *link;
    struct spa_hook link_listener;
    OCPWFrameCallback frames;
    OCPWStateCallback state;
    void *user;
    OCPWMode negotiated;
    int has_format;
    int streaming;
    int disconnected;
};

static void report(OCPWCapture *capture, int32_t state, const char *message) {
    if (capture->disconnected) return;
    if (state == OCPW_STATE_DISCONNECTED || state == OCPW_STATE_ERROR) capture->disconnected = 1;
    if (capture->state != NULL) capture->state(capture->user, state, message);
}

static void node_removed(struct ocpw_capture_link *entry) {
    OCPWCapture *capture = SPA_CONTAINER_OF(entry, OCPWCapture, entry);
    report(capture, OCPW_STATE_DISCONNECTED, "the camera's node was removed");
}

static void on_link_error(void *data, int seq, int res, const char *message) {
    (void)seq, (void)res;
    OCPWCapture *capture = data;
    char text[256];
    snprintf(text, sizeof text, "could not link the camera's node: %s", message != NULL ? message : "unknown error");
    report(capture, OCPW_STATE_ERROR, text);
}

static const struct pw_proxy_events link_events = {
    PW_VERSION_PROXY_EVENTS,
    .error = on_link_error,
};

/// Links the camera's node to the stream's once the stream's node exists. No session
/// manager is needed, and the stream does not ask one to link it (no AUTOCONNECT), so
/// WirePlumber on a desktop leaves it alone. The link goes with this client (no linger).
static void make_link(OCPWCapture *capture) {
    uint32_t own = pw_stream_get_node_id(capture->stream);
    if (capture->link != NULL || own == SPA_ID_INVALID) return;
    struct pw_properties *props = pw_properties_new(PW_KEY_OBJECT_LINGER, "false", NULL);
    pw_properties_setf(props, PW_KEY_LINK_OUTPUT_NODE, "%u", capture->entry.node_id);
    // The node's output port by name where the registry listed it: a device's own node has
    // one, already linked when another reader came first.
    uint32_t port = ocpw_output_port(capture->context, capture->entry.node_id);
    if (port != SPA_ID_INVALID) pw_properties_setf(props, PW_KEY_LINK_OUTPUT_PORT, "%u", port);
    pw_properties_setf(props, PW_KEY_LINK_INPUT_NODE, "%u", own);
    capture->link = pw_core_create_object(capture->context->core, "link-factory", PW_TYPE_INTERFACE_Link, PW_VERSION_LINK,
                                          &props->dict, 0);
    pw_properties_free(props);
    if (capture->link == NULL) {
        report(capture, OCPW_STATE_ERROR, "could not create a link (is link-factory loaded?)");
        return;
    }
    pw_proxy_add_listener(capture->link, &capture->link_listener, &link_events, capture);
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    (void)old;
    OCPWCapture *capture = data;
    switch (state) {
    case PW_STREAM_STATE_PAUSED:
        make_link(capture);
        if (capture->streaming) {
            capture->streaming = 0;
            report(capture, OCPW_STATE_PAUSED, "paused");
        }
        break;
    case PW_STREAM_STATE_STREAMING:
        capture->streaming = 1;
        report(capture, OCPW_STATE_STREAMING, "streaming");
        break;
    case PW_STREAM_STATE_ERROR:
        report(capture, OCPW_STATE_ERROR, error != NULL ? error : "stream error");
        break;
    default:
        break;
    }
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    OCPWCapture *capture = data;
    if (id != SPA_PARAM_Format || param == NULL) return;
    OCPWMode mode;
    if (!ocpw_mode_from_format(param, &mode)) return;
    capture->negotiated = mode;
    capture->has_format = 1;
    // Memory this process can read: plain memory, memfd (the stream maps it) or a DMA-BUF
    // (mapped here, on_add_buffer); and the
    // header that carries the producer's timestamp and sequence.
    uint8_t buffer[512];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[2];
    int32_t types = (1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd) | (1 << SPA_DATA_DmaBuf);
    if (mode.format == OCPW_FORMAT_MJPEG) {
        // A JPEG's size is not in its format: ask for room for the largest one a frame of this
        // size can be (a producer that knows no size, as pipewiresink, leaves it to the reader).
        int32_t most = mode.width * mode.height * 2 + 65536;
        params[0] = spa_pod_builder_add_object(
            &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16),
            SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size, SPA_POD_CHOICE_RANGE_Int(most, 1, INT32_MAX),
            SPA_PARAM_BUFFERS_stride, SPA_POD_CHOICE_RANGE_Int(0, 0, INT32_MAX), SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(types));
    } else {
        params[0] = spa_pod_builder_add_object(
            &b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16),
            SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(types));
    }
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
                                           SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(capture->stream, params, 2);
}

// MARK: DMA-BUF buffers

/// The planes of one buffer that arrived as DMA-BUF fds (a V4L2 device's exported buffers):
/// pw_stream maps only memfd, so they are mapped here, once, when the buffer is added.
struct mapped_planes {
    void *address[4];
    size_t length[4];
};

static void on_add_buffer(void *data, struct pw_buffer *buffer) {
    (void)data;
    struct spa_buffer *spa = buffer->buffer;
    struct mapped_planes *mapped = NULL;
    for (uint32_t i = 0; i < spa->n_datas && i < 4; i++) {
        struct spa_data *d = &spa->datas[i];
        if (d->type != SPA_DATA_DmaBuf || d->data != NULL || d->fd < 0 || d->maxsize == 0) continue;
        void *address = mmap(NULL, d->maxsize, PROT_READ, MAP_SHARED, (int)d->fd, d->mapoffset);
        if (address == MAP_FAILED) continue;  // the frame's planes stop here (on_process)
        if (mapped == NULL && (mapped = calloc(1, sizeof *mapped)) == NULL) {
            munmap(address, d->maxsize);
            break;
        }
        mapped->address[i] = address;
        mapped->length[i] = d->maxsize;
    }
    buffer->user_data = mapped;
}

static void on_remove_buffer(void *data, struct pw_buffer *buffer) {
    (void)data;
    struct mapped_planes *mapped = buffer->user_data;
    if (mapped == NULL) return;
    for (int i = 0; i < 4; i++) {
        if (mapped->address[i] != NULL) munmap(mapped->address[i], mapped->length[i]);
    }
    free(mapped);
    buffer->user_data = NULL;
}

/// Brackets the CPU's reads of a mapped DMA-BUF plane (the exporter's caches are made
/// coherent); `flags` DMA_BUF_SYNC_START or DMA_BUF_SYNC_END.
static void sync_planes(const struct spa_buffer *spa, const struct mapped_planes *mapped, uint64_t flags) {
    if (mapped == NULL) return;
    for (uint32_t i = 0; i < spa->n_datas && i < 4; i++) {
        if (mapped->address[i] == NULL) continue;
        struct dma_buf_sync sync = {.flags = flags | DMA_BUF_SYNC_READ};
        ioctl((int)spa->datas[i].fd, DMA_BUF_IOCTL_SYNC, &sync);
    }
}

static void on_process(void *data) {
    OCPWCapture *capture = data;
    struct pw_buffer *buffer = pw_stream_dequeue_buffer(capture->stream);
    if (buffer == NULL) return;
    struct spa_buffer *spa = buffer->buffer;
    OCPWFrame frame;
    memset(&frame, 0, sizeof frame);
    frame.host_time = ocpw_now();
    frame.pts = -1;
    frame.sequence = -1;
    struct spa_meta_header *header = spa_buffer_find_meta_data(spa, SPA_META_Header, sizeof *header);
    if (header != NULL) {
        frame.pts = header->pts;
        frame.sequence = (int64_t)header->seq;
        frame.corrupted = (header->flags & SPA_META_HEADER_FLAG_CORRUPTED) != 0;
    }
    const struct mapped_planes *mapped = buffer->user_data;
    for (uint32_t i = 0; i < spa->n_datas && i < 4; i++) {
        struct spa_data *d = &spa->datas[i];
        const void *address = d->data != NULL ? d->data : mapped != NULL ? mapped->address[i] : NULL;
        if (address == NULL || d->chunk == NULL) break;
        uint32_t offset = d->chunk->offset % (d->maxsize ? d->maxsize : 1);
        frame.data[i] = (const uint8_t *)address + offset;
        frame.stride[i] = d->chunk->stride;
        frame.size[i] = SPA_MIN(d->chunk->size, d->maxsize - offset);
        frame.corrupted |= (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED) != 0;
        frame.planes = (int32_t)i + 1;
    }
    if (frame.planes > 0 && capture->frames != NULL && !capture->disconnected) {
        sync_planes(spa, mapped, DMA_BUF_SYNC_START);
        capture->frames(capture->user, &frame);
        sync_planes(spa, mapped, DMA_BUF_SYNC_END);
    }
    pw_stream_queue_buffer(capture->stream, buffer);
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .param_changed = on_param_changed,
    .add_buffer = on_add_buffer,
    .remove_buffer = on_remove_buffer,
    .process = on_process,
};

OCPWCapture *ocpw_capture_start(OCPWContext *context, uint32_t node_id, const OCPWMode *mode, int32_t rate_num, int32_t rate_den,
                                OCPWFrameCallback frames, OCPWStateCallback state, void *user, char *error, size_t error_capacity) {
    OCPWCapture *capture = calloc(1, sizeof *capture);
    if (capture == NULL) {
        ocpw_fail(error, error_capacity, "out of memory");
        return NULL;
    }
    capture->context = context;
    capture->entry.node_id = node_id;
    capture->entry.node_removed = node_removed;
    capture->frames = frames;
    capture->state = state;
    capture->user = user;

    pw_thread_loop_lock(context->loop);
    if (context->broken) {
        pw_thread_loop_unlock(context->loop);
        free(capture);
        ocpw_fail(error, error_capacity, "the PipeWire daemon is gone");
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof name, "opencapture-capture-%u", node_id);
    struct pw_properties *props = pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE,
                                                    "Camera", PW_KEY_NODE_NAME, name, PW_KEY_APP_NAME, "OpenCapture", NULL);
    capture->stream = pw_stream_new(context->core, name, props);
    if (capture->stream == NULL) {
        pw_thread_loop_unlock(context->loop);
        free(capture);
        ocpw_fail(error, error_capacity, "could not create a PipeWire stream");
        return NULL;
    }
    pw_stream_add_listener(capture->stream, &capture->stream_listener, &stream_events, capture);
    spa_list_append(&context->captures, &capture->entry.link);
    uint8_t buffer[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[1] = {
        ocpw_build_enum_format(&b, &mode->format, 1, mode->width, mode->height, rate_num, rate_den, 0),
    };
    int result = pw_stream_connect(capture->stream, PW_DIRECTION_INPUT, PW_ID_ANY, PW_STREAM_FLAG_MAP_BUFFERS, params, 1);
    pw_thread_loop_unlock(context->loop);
    if (result < 0) {
        ocpw_fail(error, error_capacity, "could not connect the stream (%s)", strerror(-result));
        ocpw_capture_stop(capture);
        return NULL;
    }
    return capture;
}

int32_t ocpw_capture_negotiated(OCPWCapture *capture, OCPWMode *mode) {
    pw_thread_loop_lock(capture->context->loop);
    int32_t has = capture->has_format;
    if (has) *mode = capture->negotiated;
    pw_thread_loop_unlock(capture->context->loop);
    return has;
}

void ocpw_capture_stop(OCPWCapture *capture) {
    if (capture == NULL) return;
    OCPWContext *context = capture->context;
    pw_thread_loop_lock(context->loop);
    spa_list_remove(&capture->entry.link);
    if (capture->link != NULL) {
        spa_hook_remove(&capture->link_listener);
        pw_proxy_destroy(capture->link);
    }
    spa_hook_remove(&capture->stream_listener);
    pw_stream_destroy(capture->stream);
    pw_thread_loop_unlock(context->loop);
    free(capture);
}
