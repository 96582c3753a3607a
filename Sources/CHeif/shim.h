#include <libheif/heif.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * Collects what heif_context_write produces in one growing malloc'd block, so Swift
 * hands over a plain struct and frees `bytes` with free() afterwards; the callback
 * returns libheif's error struct by value, which is simplest to build in C.
 */
typedef struct {
    unsigned char *bytes;
    size_t count;
    int failed;
} oc_heif_output;

static struct heif_error oc_heif_write(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    oc_heif_output *output = (oc_heif_output *)userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    unsigned char *grown = (unsigned char *)realloc(output->bytes, output->count + size);
    if (!grown) {
        output->failed = 1;
        struct heif_error failed = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return failed;
    }
    memcpy(grown + output->count, data, size);
    output->bytes = grown;
    output->count += size;
    return ok;
}

/** Writes `context` into `output` (zeroed before; free output->bytes afterwards). */
static inline struct heif_error oc_heif_write_to_memory(struct heif_context *context, oc_heif_output *output) {
    struct heif_writer writer;
    writer.writer_api_version = 1;
    writer.write = oc_heif_write;
    return heif_context_write(context, &writer, output);
}
