#ifndef OC_FACE_RUNTIME_H
#define OC_FACE_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One face found, in pixels of the image read (the plugin's OCFace, same layout).
typedef struct {
    double centerX;
    double centerY;
    /// Side of the face's square.
    double size;
    /// Degrees clockwise in the picture, a multiple of 30 in 0 ... 330.
    int roll;
    /// Degrees: 0 frontal, 90 profile looking to the picture's left, 270 to its right, 45/315 half turned.
    int yaw;
} OCFoundFace;

typedef struct OCFaceSession OCFaceSession;

/// Whether faces can be detected: the plugin (libOpenCaptureFaceDetector.so) is found and
/// OpenCV's cascade files are installed. Cheap: looks for the files, loads nothing.
int oc_faces_available(void);

/// A detector of one's own (the cascades loaded, about 50 ms), loading the plugin and
/// OpenCV first if needed; NULL if that fails (`oc_faces_error` says why).
OCFaceSession *oc_faces_open(void);

/// Why the last oc_faces_open failed (a static string).
const char *oc_faces_error(void);

/// Finds faces in the image (rows `stride` bytes apart; `layout` 0 luma8, 1 luma16 high
/// byte, 2 BGRA), scaled down to `workingWidth` pixels across first. Returns the count
/// found (up to `capacity` written) or -1. One session is used by one thread at a time.
int oc_faces_detect(OCFaceSession *session, const uint8_t *pixels, int width, int height, int stride, int layout, int workingWidth, OCFoundFace *faces, int capacity);

void oc_faces_close(OCFaceSession *session);

#ifdef __cplusplus
}
#endif

#endif
