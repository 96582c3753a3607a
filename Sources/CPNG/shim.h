#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

/*
 * Row-by-row PNG reading from memory for Swift.
 *
 * libpng reports errors by longjmp, which Swift cannot catch, so every call into libpng
 * that may fail goes through one of the functions below: each arms its own setjmp, so a
 * failure unwinds only C frames (libpng's and this function's) and comes back as a 0
 * return with the message in `message`. The read callback and the error handler are C
 * too, so no Swift frame is ever between a libpng error and its setjmp.
 */

/** One PNG being read. Zero it and call `oc_png_open`; always call `oc_png_close`. */
typedef struct {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t offset;
    /** libpng's error message after a failed call. */
    char message[200];
} oc_png_reader;

static void oc_png_on_error(png_structp png, png_const_charp message) {
    oc_png_reader *reader = (oc_png_reader *)png_get_error_ptr(png);
    strncpy(reader->message, message ? message : "unknown libpng error", sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = 0;
    png_longjmp(png, 1);
}

/* Warnings (a bad ancillary chunk, say) leave the picture readable: ignored. */
static void oc_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void oc_png_on_read(png_structp png, png_bytep out, size_t length) {
    oc_png_reader *reader = (oc_png_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) png_error(png, "the file ends early (truncated)");
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

/**
 * Starts reading the `size` bytes at `data` (which must outlive the reader) and reads the
 * header: afterwards `png_get_IHDR`, `png_get_valid` and `png_get_gAMA_fixed` answer.
 * Ancillary chunks are capped at `chunk_limit` bytes each. Returns 1, or 0 on failure.
 */
static inline int oc_png_open(oc_png_reader *reader, const void *data, size_t size, size_t chunk_limit) {
    memset(reader, 0, sizeof *reader);
    reader->data = (const unsigned char *)data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, oc_png_on_error, oc_png_on_warning);
    if (!reader->png) {
        strcpy(reader->message, "cannot create a libpng reader");
        return 0;
    }
    reader->info = png_create_info_struct(reader->png);
    if (!reader->info) {
        strcpy(reader->message, "cannot create a libpng info block");
        return 0;
    }
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    png_set_read_fn(reader->png, reader, oc_png_on_read);
    png_set_chunk_malloc_max(reader->png, chunk_limit);
    png_read_info(reader->png, reader->info);
    return 1;
}

/**
 * Asks for RGB or RGBA rows of 8 or 16 bits (16-bit samples big-endian, as stored):
 * palettes expanded, grey to RGB, bit depths below 8 raised, tRNS turned into alpha.
 * `passes` is set to 1, or to 7 for an interlaced image: then each pass reads every row
 * again into the same row memory, which ends up whole after the last pass (so the image
 * must be in one buffer). Returns 1, or 0 on failure.
 */
static inline int oc_png_start(oc_png_reader *reader, int *passes) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    png_set_expand(reader->png);
    png_set_gray_to_rgb(reader->png);
    *passes = png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    return 1;
}

/** Reads the next row into `row` (`png_get_rowbytes` bytes). Returns 1, or 0 on failure. */
static inline int oc_png_read_row(oc_png_reader *reader, unsigned char *row) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    png_read_row(reader->png, row, NULL);
    return 1;
}

/** Frees the reader (safe after any failure, and on a zeroed reader). */
static inline void oc_png_close(oc_png_reader *reader) {
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    reader->png = NULL;
    reader->info = NULL;
}
