// zxing-cpp's headers are C++ (Debian 12's 1.4.0 has no C API): only the CBarcode C++
// target includes them; Swift reads barcodes through CBarcode's C header.
#ifdef __cplusplus
#include <ZXing/ReadBarcode.h>
#include <ZXing/MultiFormatWriter.h>
#endif
