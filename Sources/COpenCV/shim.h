// OpenCV 4's headers are C++ only: only the OpenCaptureFaceDetector C++ target includes them.
#ifdef __cplusplus
#include <opencv2/objdetect.hpp>
#include <opencv2/imgproc.hpp>
#endif
