// libcamera's headers are C++ only: only the OpenCaptureLibcamera C++ target includes them.
#ifdef __cplusplus
#include <libcamera/libcamera.h>
#endif
