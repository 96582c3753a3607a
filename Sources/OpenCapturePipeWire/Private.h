// What the plug-in's files share; nothing here leaves the plug-in.
#ifndef OC_PIPEWIRE_PRIVATE_H
#define OC_PIPEWIRE_PRIVATE_H

#include "include/OCPipeWire.h"

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

struct OCPWContext {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    OCPWNodeCallback nodes;
    OCPWStateCallback daemon_gone;
    void *user;
    /// Camera nodes known, for reporting their removal.
    OCPWNode *cameras;
    size_t camera_count, camera_capacity;
    /// Output ports of camera nodes (port id, node id), so a link can name the port: a
    /// device's own node (the SPA v4l2 plug-in's, without the adapter) has one output port,
    /// which link-factory, asked for any free port, does not give to a second reader.
    struct ocpw_port { uint32_t id, node_id; } *ports;
    size_t port_count, port_capacity;
    /// Running captures, told when the node they read is removed.
    struct spa_list captures;
    /// The last core sync answered (ocpw_roundtrip).
    int done_seq;
    int broken;
};

/// A capture's part the context knows (Capture.c).
struct ocpw_capture_link {
    struct spa_list link;
    uint32_t node_id;
    void (*node_removed)(struct ocpw_capture_link *);
};

/// Waits, with the loop locked, until the daemon has answered everything asked before (a
/// core sync), up to five seconds; 0 when answered.
int ocpw_roundtrip(OCPWContext *context);

/// The first output port of node `node_id` the registry listed, or SPA_ID_INVALID. With the
/// loop locked.
uint32_t ocpw_output_port(OCPWContext *context, uint32_t node_id);

/// Binds camera node `node_id` (with the loop locked), listens with `events` (and
/// `proxy_events`, when not NULL) on `data`, lets `ask` send its requests and waits until the
/// daemon answered them all; 0 when it did, else a negative errno (-ENOENT for a node that
/// is no camera or gone).
int ocpw_with_node(OCPWContext *context, uint32_t node_id, const struct pw_node_events *events,
                   const struct pw_proxy_events *proxy_events, void *data,
                   void (*ask)(struct pw_node *node, const void *argument), const void *argument);

/// Writes `message` (printf style) into `error`.
void ocpw_fail(char *error, size_t capacity, const char *format, ...) __attribute__((format(printf, 3, 4)));

/// CLOCK_MONOTONIC nanoseconds.
int64_t ocpw_now(void);

// Formats.c: SPA formats and pods.
uint32_t ocpw_spa_format(int32_t format);
int32_t ocpw_format_from_spa(uint32_t spa_format);
/// Adds the modes an EnumFormat param describes to `modes` (up to `capacity`, at `*count`);
/// counts, without writing, the ones beyond.
void ocpw_modes_from_param(const struct spa_pod *param, OCPWMode *modes, int32_t capacity, int32_t *count);
/// The mode a negotiated Format param fixes; 0 when it is not video this plug-in reads.
int ocpw_mode_from_format(const struct spa_pod *param, OCPWMode *mode);
/// An EnumFormat pod for `formats` (several raw formats, or MJPEG alone) at one size, with
/// the rate `rate_num / rate_den` fixed (`exact`) or preferred within any.
const struct spa_pod *ocpw_build_enum_format(struct spa_pod_builder *builder, const int32_t *formats, int32_t count, int32_t width,
                                             int32_t height, int32_t rate_num, int32_t rate_den, int exact);

#endif
