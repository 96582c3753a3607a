#ifndef OC_PLUGIN_PATH_H
#define OC_PLUGIN_PATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes into `path` where plug-in library `name` (e.g. "libOpenCapturePipeWire.so") is
/// when it sits beside the program or library this code is linked into, as SwiftPM builds
/// products side by side; 1 when that file exists, 0 if not. A program started by name (found
/// on PATH) is found through /proc/self/exe, since glibc names it as it was started.
int oc_plugin_path(const char *name, char *path, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
