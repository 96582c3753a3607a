#ifndef OC_BARCODE_H
#define OC_BARCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Symbologies, as bits (the values of zxing-cpp 1.4's BarcodeFormat).
enum {
    OC_BARCODE_AZTEC = 1 << 0,
    OC_BARCODE_CODABAR = 1 << 1,
    OC_BARCODE_CODE39 = 1 << 2,
    OC_BARCODE_CODE93 = 1 << 3,
    OC_BARCODE_CODE128 = 1 << 4,
    OC_BARCODE_DATABAR = 1 << 5,
    OC_BARCODE_DATABAR_EXPANDED = 1 << 6,
    OC_BARCODE_DATA_MATRIX = 1 << 7,
    OC_BARCODE_EAN8 = 1 << 8,
    OC_BARCODE_EAN13 = 1 << 9,
    OC_BARCODE_ITF = 1 << 10,
    OC_BARCODE_MAXICODE = 1 << 11,
    OC_BARCODE_PDF417 = 1 << 12,
    OC_BARCODE_QR = 1 << 13,
    OC_BARCODE_UPCA = 1 << 14,
    OC_BARCODE_UPCE = 1 << 15,
    OC_BARCODE_MICRO_QR = 1 << 16,
};

/// One decoded symbol. `text` is UTF-8, NUL-terminated, owned by the result list.
typedef struct {
    int format;
    /// Corners in pixels of the image passed in: top-left, top-right, bottom-right,
    /// bottom-left of the symbol in its own orientation.
    int x[4];
    int y[4];
    const char *text;
    size_t textLength;
} OCBarcode;

/// Decoded symbols; free with oc_barcode_list_free.
typedef struct OCBarcodeList OCBarcodeList;

/// How the pixels passed to oc_barcode_read are laid out.
enum {
    /// One byte of luma a pixel.
    OC_LAYOUT_LUMA8 = 0,
    /// 16-bit little-endian luma words with the sample in the high bits ('x420'): the high byte is read.
    OC_LAYOUT_LUMA16 = 1,
    /// Blue, green, red, alpha bytes ('BGRA').
    OC_LAYOUT_BGRX = 2,
};

/// Reads every symbol of `formats` in the image at `pixels` (`width`x`height`, rows
/// `stride` bytes apart, `layout` one of OC_LAYOUT_). `tryHarder` spends more time on
/// small or blurred symbols. Never NULL; a failure is an empty list.
OCBarcodeList *oc_barcode_read(const uint8_t *pixels, int width, int height, int stride, int layout, int formats, int tryHarder);
int oc_barcode_list_count(const OCBarcodeList *list);
/// The `index`th symbol, valid until the list is freed.
OCBarcode oc_barcode_list_item(const OCBarcodeList *list, int index);
void oc_barcode_list_free(OCBarcodeList *list);

/// Encodes `text` as one symbol of `format` (a single OC_BARCODE_ bit) with no quiet zone:
/// one byte per module, 1 = dark, row by row, into `modules` when `capacity` is enough.
/// Returns the module count (`*width` x `*height`; a 1-D code is 1 row high), or -1 if
/// the text cannot be encoded in that format. `eccLevel` -1 is the format's default.
long oc_barcode_encode(int format, const char *text, int eccLevel, uint8_t *modules, long capacity, int *width, int *height);

/// zxing-cpp's version, "1.4.0".
const char *oc_barcode_library_version(void);

#ifdef __cplusplus
}
#endif

#endif
