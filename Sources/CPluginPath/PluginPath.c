// Where the optional plug-ins (face detector, PipeWire, libcamera) are: beside the binary
// their loader is linked into. Shared by the three loaders.
#define _GNU_SOURCE
#include "CPluginPath.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int oc_plugin_path(const char *name, char *path, size_t capacity) {
    Dl_info info;
    if (dladdr((const void *)&oc_plugin_path, &info) == 0 || info.dli_fname == NULL) return 0;
    const char *file = info.dli_fname;
    // In the program itself, glibc names it as it was started (argv[0], maybe found on PATH).
    char program[PATH_MAX];
    if (strchr(file, '/') == NULL) {
        ssize_t count = readlink("/proc/self/exe", program, sizeof program - 1);
        if (count <= 0) return 0;
        program[count] = 0;
        file = program;
    }
    const char *slash = strrchr(file, '/');
    int length = snprintf(path, capacity, "%.*s/%s", (int)(slash - file), file, name);
    struct stat s;
    return length > 0 && (size_t)length < capacity && stat(path, &s) == 0 && S_ISREG(s.st_mode);
}
