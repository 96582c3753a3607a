// The face-detector plugin, loaded when a metadata output first asks for faces.
//
// Why a plugin: OpenCV's pkg-config file (Debian 12 ships only opencv4.pc) links all 56 of
// its modules, which pull in about 360 shared libraries (Qt, GDAL, HDF5, Tesseract, ...). Linked into
// OpenCapture, every process would load them before main (docs/PERFORMANCE.md
// "Process start-up"). So the C++ code that calls OpenCV is its own shared library,
// libOpenCaptureFaceDetector.so (a product of this package, built beside the programs),
// and this file finds it with dlopen and its C functions with dlsym; their types come from
// the plugin's own header, so a drifted signature fails to compile here.
#define _GNU_SOURCE
#include "CFaceRuntime.h"
#include "CPluginPath.h"

#include "../OpenCaptureFaceDetector/include/OCFaceDetector.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

_Static_assert(sizeof(OCFoundFace) == sizeof(OCFace), "OCFoundFace is the plugin's OCFace");
_Static_assert(offsetof(OCFoundFace, size) == offsetof(OCFace, size), "OCFoundFace is the plugin's OCFace");
_Static_assert(offsetof(OCFoundFace, yaw) == offsetof(OCFace, yaw), "OCFoundFace is the plugin's OCFace");

#define OC_PLUGIN_NAME "libOpenCaptureFaceDetector.so"

// Where OpenCV's data (opencv-data) is installed, Debian's place first.
static const char *const cascade_places[] = {"/usr/share/opencv4", "/usr/local/share/opencv4"};
static const char frontal_file[] = "/haarcascades/haarcascade_frontalface_alt2.xml";
static const char profile_file[] = "/haarcascades/haarcascade_profileface.xml";

static int is_file(const char *path) {
    struct stat s;
    return stat(path, &s) == 0 && S_ISREG(s.st_mode);
}

// The cascades' directory, or NULL.
static const char *cascade_directory(void) {
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof cascade_places / sizeof cascade_places[0]; i++) {
        snprintf(path, sizeof path, "%s%s", cascade_places[i], frontal_file);
        if (!is_file(path)) continue;
        snprintf(path, sizeof path, "%s%s", cascade_places[i], profile_file);
        if (is_file(path)) return cascade_places[i];
    }
    return NULL;
}

// The plugin's path: beside the program or library this code is in; 0 if there is none.
static int plugin_path(char *path, size_t capacity) { return oc_plugin_path(OC_PLUGIN_NAME, path, capacity); }

int oc_faces_available(void) {
    char path[PATH_MAX];
    return cascade_directory() != NULL && plugin_path(path, sizeof path);
}

static struct {
    pthread_once_t once;
    const char *error;
    OCFaceDetector *(*create)(const char *, const char *);
    int (*detect)(OCFaceDetector *, const uint8_t *, int, int, int, int, int, OCFace *, int);
    void (*destroy)(OCFaceDetector *);
} plugin = {PTHREAD_ONCE_INIT, NULL, NULL, NULL, NULL};

static void load_plugin(void) {
    char path[PATH_MAX];
    if (!plugin_path(path, sizeof path)) {
        plugin.error = "the face detector plugin (" OC_PLUGIN_NAME ") is not beside the program";
        return;
    }
    // Kept loaded for the life of the process, as FFmpeg is.
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        plugin.error = "the face detector plugin could not be loaded (is OpenCV installed?)";
        return;
    }
    *(void **)&plugin.create = dlsym(handle, "oc_face_plugin_create");
    *(void **)&plugin.detect = dlsym(handle, "oc_face_plugin_detect");
    *(void **)&plugin.destroy = dlsym(handle, "oc_face_plugin_destroy");
    if (plugin.create == NULL || plugin.detect == NULL || plugin.destroy == NULL) {
        plugin.create = NULL;
        plugin.error = "the face detector plugin lacks its functions";
    }
}

struct OCFaceSession {
    OCFaceDetector *detector;
};

static __thread const char *last_error;

OCFaceSession *oc_faces_open(void) {
    pthread_once(&plugin.once, load_plugin);
    if (plugin.create == NULL) {
        last_error = plugin.error;
        return NULL;
    }
    const char *directory = cascade_directory();
    if (directory == NULL) {
        last_error = "OpenCV's face cascades (opencv-data) are not installed";
        return NULL;
    }
    char frontal[PATH_MAX], profile[PATH_MAX];
    snprintf(frontal, sizeof frontal, "%s%s", directory, frontal_file);
    snprintf(profile, sizeof profile, "%s%s", directory, profile_file);
    OCFaceDetector *detector = plugin.create(frontal, profile);
    if (detector == NULL) {
        last_error = "OpenCV could not read its face cascades";
        return NULL;
    }
    OCFaceSession *session = (OCFaceSession *)calloc(1, sizeof *session);
    if (session == NULL) {
        plugin.destroy(detector);
        last_error = "out of memory";
        return NULL;
    }
    session->detector = detector;
    return session;
}

const char *oc_faces_error(void) { return last_error != NULL ? last_error : "no error"; }

int oc_faces_detect(OCFaceSession *session, const uint8_t *pixels, int width, int height, int stride, int layout, int workingWidth, OCFoundFace *faces, int capacity) {
    if (session == NULL) return -1;
    return plugin.detect(session->detector, pixels, width, height, stride, layout, workingWidth, (OCFace *)faces, capacity);
}

void oc_faces_close(OCFaceSession *session) {
    if (session == NULL) return;
    plugin.destroy(session->detector);
    free(session);
}
