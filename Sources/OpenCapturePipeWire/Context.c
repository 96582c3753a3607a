// A connection to a PipeWire daemon on a thread loop of its own, the camera nodes found
// through its registry, and their formats.
#define _GNU_SOURCE
#include "Private.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int32_t ocpw_api_version(void) { return OCPW_API_VERSION; }

void ocpw_fail(char *error, size_t capacity, const char *format, ...) {
    if (error == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, capacity, format, args);
    va_end(args);
}

int64_t ocpw_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init_pipewire(void) { pw_init(NULL, NULL); }

// MARK: Core events

static void on_core_done(void *data, uint32_t id, int seq) {
    OCPWContext *context = data;
    if (id != PW_ID_CORE) return;
    context->done_seq = seq;
    pw_thread_loop_signal(context->loop, false);
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    OCPWContext *context = data;
    // A broken connection (EPIPE on the core): every node, capture and publisher is gone.
    if (id == PW_ID_CORE && res == -EPIPE) {
        if (context->broken) return;
        context->broken = 1;
        pw_thread_loop_signal(context->loop, false);
        if (context->daemon_gone != NULL) context->daemon_gone(context->user, OCPW_STATE_DAEMON_GONE, message);
    }
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_core_done,
    .error = on_core_error,
};

int ocpw_roundtrip(OCPWContext *context) {
    int seq = pw_core_sync(context->core, PW_ID_CORE, 0);
    struct timespec deadline;
    pw_thread_loop_get_time(context->loop, &deadline, 5 * SPA_NSEC_PER_SEC);
    while (context->done_seq < seq && !context->broken) {
        if (pw_thread_loop_timed_wait_full(context->loop, &deadline) != 0) return -ETIMEDOUT;
    }
    return context->broken ? -EPIPE : 0;
}

// MARK: Registry

static void copy_string(char *to, size_t capacity, const char *from) { snprintf(to, capacity, "%s", from != NULL ? from : ""); }

/// Whether a node is a camera: a Video/Source node (a device's, or an application's as
/// OBS's virtual camera) or an application's video output stream with the Camera role (GStreamer's
/// pipewiresink mode=provide), and not a node this process publishes itself.
static int is_camera(const struct spa_dict *props) {
    const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    const char *role = spa_dict_lookup(props, PW_KEY_MEDIA_ROLE);
    const char *publisher = spa_dict_lookup(props, "opencapture.publisher.pid");
    if (class == NULL) return 0;
    if (publisher != NULL && atoi(publisher) == getpid()) return 0;
    if (strcmp(class, "Video/Source") == 0) return role == NULL || strcmp(role, "Camera") == 0;
    return strcmp(class, "Stream/Output/Video") == 0 && role != NULL && strcmp(role, "Camera") == 0;
}

/// Keeps an output port's id and node.
static void add_port(OCPWContext *context, uint32_t id, const struct spa_dict *props) {
    const char *direction = spa_dict_lookup(props, PW_KEY_PORT_DIRECTION);
    const char *node = spa_dict_lookup(props, PW_KEY_NODE_ID);
    if (direction == NULL || node == NULL || strcmp(direction, "out") != 0) return;
    if (context->port_count == context->port_capacity) {
        size_t capacity = context->port_capacity ? context->port_capacity * 2 : 16;
        struct ocpw_port *grown = realloc(context->ports, capacity * sizeof *grown);
        if (grown == NULL) return;
        context->ports = grown;
        context->port_capacity = capacity;
    }
    context->ports[context->port_count++] = (struct ocpw_port){id, (uint32_t)strtoul(node, NULL, 10)};
}

uint32_t ocpw_output_port(OCPWContext *context, uint32_t node_id) {
    for (size_t i = 0; i < context->port_count; i++) {
        if (context->ports[i].node_id == node_id) return context->ports[i].id;
    }
    return SPA_ID_INVALID;
}

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version, const struct spa_dict *props) {
    (void)permissions, (void)version;
    OCPWContext *context = data;
    if (props != NULL && strcmp(type, PW_TYPE_INTERFACE_Port) == 0) {
        add_port(context, id, props);
        return;
    }
    if (props == NULL || strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || !is_camera(props)) return;
    OCPWNode node;
    memset(&node, 0, sizeof node);
    node.id = id;
    const char *serial = spa_dict_lookup(props, PW_KEY_OBJECT_SERIAL);
    node.serial = serial != NULL ? strtoull(serial, NULL, 10) : id;
    copy_string(node.name, sizeof node.name, spa_dict_lookup(props, PW_KEY_NODE_NAME));
    const char *description = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
    if (description == NULL) description = spa_dict_lookup(props, PW_KEY_NODE_NICK);
    copy_string(node.description, sizeof node.description, description != NULL ? description : node.name);
    copy_string(node.media_class, sizeof node.media_class, spa_dict_lookup(props, PW_KEY_MEDIA_CLASS));
    copy_string(node.role, sizeof node.role, spa_dict_lookup(props, PW_KEY_MEDIA_ROLE));
    copy_string(node.api, sizeof node.api, spa_dict_lookup(props, PW_KEY_DEVICE_API));
    if (context->camera_count == context->camera_capacity) {
        size_t capacity = context->camera_capacity ? context->camera_capacity * 2 : 8;
        OCPWNode *grown = realloc(context->cameras, capacity * sizeof *grown);
        if (grown == NULL) return;
        context->cameras = grown;
        context->camera_capacity = capacity;
    }
    context->cameras[context->camera_count++] = node;
    if (context->nodes != NULL) context->nodes(context->user, 1, &node);
}

static void on_global_remove(void *data, uint32_t id) {
    OCPWContext *context = data;
    for (size_t i = 0; i < context->port_count; i++) {
        if (context->ports[i].id != id) continue;
        context->ports[i] = context->ports[--context->port_count];
        return;
    }
    struct ocpw_capture_link *capture, *next;
    spa_list_for_each_safe(capture, next, &context->captures, link) {
        if (capture->node_id == id) capture->node_removed(capture);
    }
    for (size_t i = 0; i < context->camera_count; i++) {
        if (context->cameras[i].id != id) continue;
        OCPWNode node = context->cameras[i];
        context->cameras[i] = context->cameras[--context->camera_count];
        if (context->nodes != NULL) context->nodes(context->user, 0, &node);
        return;
    }
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
    .global_remove = on_global_remove,
};

// MARK: Connecting

OCPWContext *ocpw_connect(const char *remote, int fd, OCPWNodeCallback nodes, OCPWStateCallback daemon_gone, void *user, char *error,
                          size_t error_capacity) {
    pthread_once(&init_once, init_pipewire);
    OCPWContext *context = calloc(1, sizeof *context);
    if (context == NULL) {
        ocpw_fail(error, error_capacity, "out of memory");
        return NULL;
    }
    spa_list_init(&context->captures);
    context->nodes = nodes;
    context->daemon_gone = daemon_gone;
    context->user = user;
    context->loop = pw_thread_loop_new("OpenCapture.pipewire", NULL);
    if (context->loop == NULL) goto fail;
    context->context = pw_context_new(pw_thread_loop_get_loop(context->loop), NULL, 0);
    if (context->context == NULL) goto fail;
    if (pw_thread_loop_start(context->loop) < 0) goto fail;
    pw_thread_loop_lock(context->loop);
    if (fd >= 0) {
        context->core = pw_context_connect_fd(context->context, fd, NULL, 0);
    } else {
        struct pw_properties *props = remote != NULL ? pw_properties_new(PW_KEY_REMOTE_NAME, remote, NULL) : NULL;
        context->core = pw_context_connect(context->context, props, 0);
    }
    if (context->core == NULL) {
        int code = errno;
        pw_thread_loop_unlock(context->loop);
        if (fd >= 0) {
            ocpw_fail(error, error_capacity, "the Camera portal's PipeWire connection failed (%s)", strerror(code));
        } else {
            ocpw_fail(error, error_capacity, "no PipeWire daemon at %s (%s)", remote != NULL ? remote : "the default socket", strerror(code));
        }
        ocpw_disconnect(context);
        return NULL;
    }
    pw_core_add_listener(context->core, &context->core_listener, &core_events, context);
    context->registry = pw_core_get_registry(context->core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(context->registry, &context->registry_listener, &registry_events, context);
    // The nodes there are now arrive before the sync is answered.
    int answered = ocpw_roundtrip(context);
    pw_thread_loop_unlock(context->loop);
    if (answered != 0) {
        ocpw_fail(error, error_capacity, "the PipeWire daemon did not answer (%s)", strerror(-answered));
        ocpw_disconnect(context);
        return NULL;
    }
    return context;
fail:
    ocpw_fail(error, error_capacity, "could not start a PipeWire loop");
    ocpw_disconnect(context);
    return NULL;
}

void ocpw_disconnect(OCPWContext *context) {
    if (context == NULL) return;
    if (context->loop != NULL) {
        pw_thread_loop_lock(context->loop);
        if (context->registry != NULL) {
            spa_hook_remove(&context->registry_listener);
            pw_proxy_destroy((struct pw_proxy *)context->registry);
        }
        if (context->core != NULL) {
            spa_hook_remove(&context->core_listener);
            pw_core_disconnect(context->core);
        }
        pw_thread_loop_unlock(context->loop);
        pw_thread_loop_stop(context->loop);
    }
    if (context->context != NULL) pw_context_destroy(context->context);
    if (context->loop != NULL) pw_thread_loop_destroy(context->loop);
    free(context->cameras);
    free(context->ports);
    free(context);
}

// MARK: Formats of a node

struct mode_query {
    OCPWMode *modes;
    int32_t capacity;
    int32_t count;
    int answered;
};

static void on_node_param(void *data, int seq, uint32_t id, uint32_t index, uint32_t next, const struct spa_pod *param) {
    (void)seq, (void)index, (void)next;
    struct mode_query *query = data;
    query->answered = 1;
    if (id == SPA_PARAM_EnumFormat && param != NULL) ocpw_modes_from_param(param, query->modes, query->capacity, &query->count);
}

static const struct pw_node_events node_events = {
    PW_VERSION_NODE_EVENTS,
    .param = on_node_param,
};

int ocpw_with_node(OCPWContext *context, uint32_t node_id, const struct pw_node_events *events,
                   const struct pw_proxy_events *proxy_events, void *data,
                   void (*ask)(struct pw_node *node, const void *argument), const void *argument) {
    int known = 0;
    for (size_t i = 0; i < context->camera_count; i++) known |= context->cameras[i].id == node_id;
    if (!known || context->broken) return -ENOENT;
    struct pw_node *node = pw_registry_bind(context->registry, node_id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
    if (node == NULL) return -errno;
    struct spa_hook listener, proxy_listener;
    spa_zero(listener);
    spa_zero(proxy_listener);
    pw_node_add_listener(node, &listener, events, data);
    if (proxy_events != NULL) pw_proxy_add_listener((struct pw_proxy *)node, &proxy_listener, proxy_events, data);
    ask(node, argument);
    int answered = ocpw_roundtrip(context);
    if (proxy_events != NULL) spa_hook_remove(&proxy_listener);
    spa_hook_remove(&listener);
    pw_proxy_destroy((struct pw_proxy *)node);
    return answered;
}

static void ask_formats(struct pw_node *node, const void *argument) {
    (void)argument;
    pw_node_enum_params(node, 0, SPA_PARAM_EnumFormat, 0, UINT32_MAX, NULL);
}

int32_t ocpw_node_modes(OCPWContext *context, uint32_t node_id, OCPWMode *modes, int32_t capacity) {
    struct mode_query query = {modes, capacity, 0, 0};
    pw_thread_loop_lock(context->loop);
    int answered = ocpw_with_node(context, node_id, &node_events, NULL, &query, ask_formats, NULL);
    pw_thread_loop_unlock(context->loop);
    return answered == 0 ? query.count : -1;
}
