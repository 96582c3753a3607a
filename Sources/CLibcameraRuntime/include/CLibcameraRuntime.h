#ifndef OC_LIBCAMERA_RUNTIME_H
#define OC_LIBCAMERA_RUNTIME_H

// The plug-in's own C header: plain C types, no libcamera header behind it.
#include "../../OpenCaptureLibcamera/include/OCLibcamera.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The plug-in's functions, found with dlsym; their types are the plug-in header's, so a
/// drifted signature fails to compile.
typedef struct {
    __typeof__(oc_lc_manager_create) *managerCreate;
    __typeof__(oc_lc_manager_destroy) *managerDestroy;
    __typeof__(oc_lc_manager_keeps_running) *managerKeepsRunning;
    __typeof__(oc_lc_manager_idle) *managerIdle;
    __typeof__(oc_lc_version) *version;
    __typeof__(oc_lc_cameras) *cameras;
    __typeof__(oc_lc_stream_formats) *streamFormats;
    __typeof__(oc_lc_default_format) *defaultFormat;
    __typeof__(oc_lc_control_limits) *controlLimits;
    __typeof__(oc_lc_try_format) *tryFormat;
    __typeof__(oc_lc_open) *open;
    __typeof__(oc_lc_configure) *configure;
    __typeof__(oc_lc_start) *start;
    __typeof__(oc_lc_queue_controls) *queueControls;
    __typeof__(oc_lc_stop) *stop;
    __typeof__(oc_lc_close) *close;
} OCLibcameraAPI;

/// Whether libOpenCaptureLibcamera.so is beside the program (or library) this code is in.
/// Cheap: looks for the file, loads nothing.
int oc_libcamera_available(void);

/// Loads the plug-in (and libcamera with it) on first use and returns its functions; NULL
/// when it is missing or cannot load (`oc_libcamera_error` says why). Thread-safe.
const OCLibcameraAPI *oc_libcamera_api(void);

/// Why the plug-in could not be loaded (a static string).
const char *oc_libcamera_error(void);

#ifdef __cplusplus
}
#endif

#endif
