// The PipeWire plug-in, loaded when PipeWire cameras or a virtual camera are first used.
//
// Why a plug-in: libpipewire is optional (a desktop has it, a server or a container often
// not), and a package that depends on OpenCapture must build and run without it. So the C
// code that calls libpipewire is its own shared library, libOpenCapturePipeWire.so (a
// product of this package, built beside the programs), and this file finds it with dlopen
// and its functions with dlsym. Their types come from the plug-in's header (typeof), so a
// drifted signature fails to compile here.
#define _GNU_SOURCE
#include "CPipeWireRuntime.h"
#include "CPluginPath.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define OC_PLUGIN_NAME "libOpenCapturePipeWire.so"

static struct {
    pthread_once_t once;
    const char *error;
    OCPWRuntime functions;
    int loaded;
} plugin = {PTHREAD_ONCE_INIT, NULL, {0}, 0};

// The plug-in's path: beside the program or library this code is in; 0 if there is none.
static int plugin_path(char *path, size_t capacity) { return oc_plugin_path(OC_PLUGIN_NAME, path, capacity); }

#define LOAD(field, symbol)                                  \
    do {                                                     \
        *(void **)&plugin.functions.field = dlsym(handle, symbol); \
        if (plugin.functions.field == NULL) missing = 1;     \
    } while (0)

static void load_plugin(void) {
    char path[PATH_MAX];
    if (!plugin_path(path, sizeof path)) {
        plugin.error = "the PipeWire plug-in (" OC_PLUGIN_NAME ") is not beside the program";
        return;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        plugin.error = "the PipeWire plug-in could not be loaded (is libpipewire-0.3-0 installed?)";
        return;
    }
    int32_t (*version)(void);
    *(void **)&version = dlsym(handle, "ocpw_api_version");
    if (version == NULL || version() != OCPW_API_VERSION) {
        plugin.error = "the PipeWire plug-in is of another version than this program";
        return;
    }
    int missing = 0;
    LOAD(connect, "ocpw_connect");
    LOAD(disconnect, "ocpw_disconnect");
    LOAD(node_modes, "ocpw_node_modes");
    LOAD(node_controls, "ocpw_node_controls");
    LOAD(node_control_value, "ocpw_node_control_value");
    LOAD(node_set_control, "ocpw_node_set_control");
    LOAD(capture_start, "ocpw_capture_start");
    LOAD(capture_negotiated, "ocpw_capture_negotiated");
    LOAD(capture_stop, "ocpw_capture_stop");
    LOAD(publisher_create, "ocpw_publisher_create");
    LOAD(publisher_node_id, "ocpw_publisher_node_id");
    LOAD(publisher_format, "ocpw_publisher_format");
    LOAD(publisher_push, "ocpw_publisher_push");
    LOAD(publisher_sent, "ocpw_publisher_sent");
    LOAD(publisher_dropped, "ocpw_publisher_dropped");
    LOAD(publisher_destroy, "ocpw_publisher_destroy");
    LOAD(portal_open, "ocpw_portal_open");
    if (missing) {
        plugin.error = "the PipeWire plug-in lacks its functions";
        return;
    }
    plugin.loaded = 1;
}

const OCPWRuntime *ocpw_runtime(void) {
    pthread_once(&plugin.once, load_plugin);
    return plugin.loaded ? &plugin.functions : NULL;
}

const char *ocpw_runtime_error(void) {
    pthread_once(&plugin.once, load_plugin);
    return plugin.error != NULL ? plugin.error : "no error";
}
