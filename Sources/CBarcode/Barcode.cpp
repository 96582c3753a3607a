// The C face of zxing-cpp for Swift (no C++ interop needed by the package's users).
// Text comes out as UTF-8 std::string (zxing-cpp 1.4 otherwise warns and gives wstring).
#define ZX_USE_UTF8 1
#include "CBarcode.h"

#include <ZXing/BitMatrix.h>

#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <string>
#include <vector>

static_assert(OC_BARCODE_QR == static_cast<int>(ZXing::BarcodeFormat::QRCode), "format bits follow zxing-cpp");
static_assert(OC_BARCODE_MICRO_QR == static_cast<int>(ZXing::BarcodeFormat::MicroQRCode), "format bits follow zxing-cpp");
static_assert(OC_BARCODE_UPCE == static_cast<int>(ZXing::BarcodeFormat::UPCE), "format bits follow zxing-cpp");

struct OCBarcodeList {
    std::vector<OCBarcode> items;
    std::vector<std::string> texts;
};

extern "C" OCBarcodeList *oc_barcode_read(const uint8_t *pixels, int width, int height, int stride, int layout, int formats, int tryHarder) {
    auto *list = new OCBarcodeList();
    if (pixels == nullptr || width <= 0 || height <= 0 || formats == 0) return list;
    try {
        ZXing::ImageView image = layout == OC_LAYOUT_BGRX ? ZXing::ImageView(pixels, width, height, ZXing::ImageFormat::BGRX, stride)
                                 : layout == OC_LAYOUT_LUMA16
                                     ? ZXing::ImageView(pixels + 1, width, height, ZXing::ImageFormat::Lum, stride, 2)
                                     : ZXing::ImageView(pixels, width, height, ZXing::ImageFormat::Lum, stride);
        ZXing::DecodeHints hints;
        hints.setFormats(static_cast<ZXing::BarcodeFormat>(formats));
        hints.setTryHarder(tryHarder != 0);
        hints.setTryRotate(true);
        // A check character is kept in the text; the Swift side decides what it means.
        hints.setValidateCode39CheckSum(false);
        auto results = ZXing::ReadBarcodes(image, hints);
        list->texts.reserve(results.size());
        for (const auto &result : results) {
            if (!result.isValid()) continue;
            list->texts.push_back(result.text());
            OCBarcode item{};
            item.format = static_cast<int>(result.format());
            const auto &position = result.position();
            for (int i = 0; i < 4; i++) {
                item.x[i] = position[i].x;
                item.y[i] = position[i].y;
            }
            list->items.push_back(item);
        }
        for (size_t i = 0; i < list->items.size(); i++) {
            list->items[i].text = list->texts[i].c_str();
            list->items[i].textLength = list->texts[i].size();
        }
    } catch (...) {
        list->items.clear();
        list->texts.clear();
    }
    return list;
}

extern "C" int oc_barcode_list_count(const OCBarcodeList *list) { return list ? static_cast<int>(list->items.size()) : 0; }

extern "C" OCBarcode oc_barcode_list_item(const OCBarcodeList *list, int index) { return list->items.at(static_cast<size_t>(index)); }

extern "C" void oc_barcode_list_free(OCBarcodeList *list) { delete list; }

extern "C" long oc_barcode_encode(int format, const char *text, int eccLevel, uint8_t *modules, long capacity, int *width, int *height) {
    if (text == nullptr || width == nullptr || height == nullptr) return -1;
    try {
        ZXing::MultiFormatWriter writer(static_cast<ZXing::BarcodeFormat>(format));
        writer.setMargin(0);
        if (eccLevel >= 0) writer.setEccLevel(eccLevel);
        // Size 0 asks for one pixel a module (2-D) or the narrowest bar (1-D).
        ZXing::BitMatrix matrix = writer.encode(std::string(text), 0, 0);
        int w = matrix.width(), h = matrix.height();
        // Linear writers draw every row alike; keep one.
        bool linear = (format & (OC_BARCODE_CODABAR | OC_BARCODE_CODE39 | OC_BARCODE_CODE93 | OC_BARCODE_CODE128 | OC_BARCODE_EAN8 |
                                 OC_BARCODE_EAN13 | OC_BARCODE_ITF | OC_BARCODE_UPCA | OC_BARCODE_UPCE)) != 0;
        if (linear) h = 1;
        *width = w;
        *height = h;
        long count = static_cast<long>(w) * h;
        if (modules != nullptr && capacity >= count) {
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) modules[static_cast<long>(y) * w + x] = matrix.get(x, y) ? 1 : 0;
        }
        return count;
    } catch (...) {
        return -1;
    }
}

#define OC_STRINGIFY2(x) #x
#define OC_STRINGIFY(x) OC_STRINGIFY2(x)

extern "C" const char *oc_barcode_library_version(void) {
    return OC_STRINGIFY(ZXING_VERSION_MAJOR) "." OC_STRINGIFY(ZXING_VERSION_MINOR) "." OC_STRINGIFY(ZXING_VERSION_PATCH);
}
