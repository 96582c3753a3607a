// The libcamera plug-in, loaded when the libcamera backend first looks for cameras.
//
// Why a plug-in: libcamera's C++ API does not import into Swift, changes at almost every
// minor release, and is not on every machine; a package that depends on OpenCapture must
// build and start without it. So the C++ code that calls libcamera is its own shared
// library, libOpenCaptureLibcamera.so (a product of this package, built beside the
// programs), and this file finds it with dlopen and its C functions with dlsym, as
// CFaceRuntime does for the face detector.
#define _GNU_SOURCE
#include "CLibcameraRuntime.h"
#include "CPluginPath.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OC_PLUGIN_NAME "libOpenCaptureLibcamera.so"

// The plug-in's path: beside the program or library this code is in; 0 if there is none.
static int plugin_path(char *path, size_t capacity) { return oc_plugin_path(OC_PLUGIN_NAME, path, capacity); }

int oc_libcamera_available(void) {
    char path[PATH_MAX];
    return plugin_path(path, sizeof path);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error = "not loaded";
static OCLibcameraAPI api;
static int loaded;

#define FIND(field, name)                                   \
    do {                                                    \
        *(void **)&api.field = dlsym(handle, name);         \
        if (api.field == NULL) missing = 1;                 \
    } while (0)

static void load_plugin(void) {
    char path[PATH_MAX];
    if (!plugin_path(path, sizeof path)) {
        load_error = "the libcamera plug-in (" OC_PLUGIN_NAME ") is not beside the program";
        return;
    }
    // Kept loaded for the life of the process: libcamera's threads outlive any one use.
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_error = "the libcamera plug-in could not be loaded (is libcamera installed?)";
        return;
    }
    int32_t (*api_version)(void);
    *(void **)&api_version = dlsym(handle, "oc_lc_api_version");
    if (api_version == NULL || api_version() != OC_LC_API_VERSION) {
        load_error = "the libcamera plug-in is of another version than this program";
        return;
    }
    int missing = 0;
    FIND(managerCreate, "oc_lc_manager_create");
    FIND(managerDestroy, "oc_lc_manager_destroy");
    FIND(managerKeepsRunning, "oc_lc_manager_keeps_running");
    FIND(managerIdle, "oc_lc_manager_idle");
    FIND(version, "oc_lc_version");
    FIND(cameras, "oc_lc_cameras");
    FIND(streamFormats, "oc_lc_stream_formats");
    FIND(defaultFormat, "oc_lc_default_format");
    FIND(controlLimits, "oc_lc_control_limits");
    FIND(tryFormat, "oc_lc_try_format");
    FIND(open, "oc_lc_open");
    FIND(configure, "oc_lc_configure");
    FIND(start, "oc_lc_start");
    FIND(queueControls, "oc_lc_queue_controls");
    FIND(stop, "oc_lc_stop");
    FIND(close, "oc_lc_close");
    if (missing) {
        load_error = "the libcamera plug-in lacks its functions";
        return;
    }
    loaded = 1;
}

const OCLibcameraAPI *oc_libcamera_api(void) {
    pthread_once(&once, load_plugin);
    return loaded ? &api : NULL;
}

const char *oc_libcamera_error(void) {
    pthread_once(&once, load_plugin);
    return loaded ? "no error" : load_error;
}
