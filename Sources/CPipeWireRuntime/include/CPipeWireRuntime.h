#ifndef OC_PIPEWIRE_RUNTIME_H
#define OC_PIPEWIRE_RUNTIME_H

// The PipeWire plug-in's types (a plain C header that includes nothing of PipeWire's).
#include "../../OpenCapturePipeWire/include/OCPipeWire.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The plug-in's functions (OCPipeWire.h says what each does and on which thread).
typedef struct {
    __typeof__(ocpw_connect) *connect;
    __typeof__(ocpw_disconnect) *disconnect;
    __typeof__(ocpw_node_modes) *node_modes;
    __typeof__(ocpw_node_controls) *node_controls;
    __typeof__(ocpw_node_control_value) *node_control_value;
    __typeof__(ocpw_node_set_control) *node_set_control;
    __typeof__(ocpw_capture_start) *capture_start;
    __typeof__(ocpw_capture_negotiated) *capture_negotiated;
    __typeof__(ocpw_capture_stop) *capture_stop;
    __typeof__(ocpw_publisher_create) *publisher_create;
    __typeof__(ocpw_publisher_node_id) *publisher_node_id;
    __typeof__(ocpw_publisher_format) *publisher_format;
    __typeof__(ocpw_publisher_push) *publisher_push;
    __typeof__(ocpw_publisher_sent) *publisher_sent;
    __typeof__(ocpw_publisher_dropped) *publisher_dropped;
    __typeof__(ocpw_publisher_destroy) *publisher_destroy;
    __typeof__(ocpw_portal_open) *portal_open;
} OCPWRuntime;

/// The plug-in (libOpenCapturePipeWire.so beside the program), loaded with dlopen on the first
/// call and kept for the life of the process; NULL when it is missing, libpipewire is not
/// installed, or it is of another API version (`ocpw_runtime_error` says which).
const OCPWRuntime *ocpw_runtime(void);

/// Why `ocpw_runtime` returned NULL (a static string).
const char *ocpw_runtime_error(void);

#ifdef __cplusplus
}
#endif

#endif
