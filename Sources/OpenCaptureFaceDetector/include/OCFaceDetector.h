#ifndef OC_FACE_DETECTOR_H
#define OC_FACE_DETECTOR_H

// The C face of the face-detector plugin (libOpenCaptureFaceDetector.so), OpenCV's cascade
// classifiers behind it. OpenCapture does not link the plugin: CFaceRuntime loads it with
// dlopen when a metadata output first asks for faces (see FaceRuntime.c for why), and
// finds these functions by name, so their types here are the contract of both sides.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One face found, in pixels of the image passed in.
typedef struct {
    /// The face's axis-aligned square: centre and side.
    double centerX;
    double centerY;
    double size;
    /// Roll in degrees, clockwise in the picture (y down), a multiple of 30 in 0 ... 330.
    int roll;
    /// Yaw in degrees: 0 frontal; 90 in profile looking towards the picture's left, 270
    /// towards its right; 45 or 315 when the frontal cascade and that profile both see it.
    int yaw;
} OCFace;

/// The frontal and profile cascades, loaded; NULL when a cascade file is missing or unreadable.
typedef struct OCFaceDetector OCFaceDetector;

/// Pixel layouts, as CBarcode's OC_LAYOUT_ (one byte of luma; 16-bit luma, high byte read; BGRA).
enum { OC_FACE_LAYOUT_LUMA8 = 0, OC_FACE_LAYOUT_LUMA16 = 1, OC_FACE_LAYOUT_BGRX = 2 };

/// Loads the cascades: `frontalCascade` and `profileCascade` are the paths of OpenCV's
/// haarcascade_frontalface_alt2.xml and haarcascade_profileface.xml (opencv-data).
OCFaceDetector *oc_face_plugin_create(const char *frontalCascade, const char *profileCascade);

/// Finds faces in the image (`width`x`height`, rows `stride` bytes apart, `layout` one of
/// OC_FACE_LAYOUT_) at `workingWidth` pixels across (the image is scaled down to it; 0
/// keeps its size). Writes up to `capacity` faces and returns how many were found (which
/// may exceed `capacity`), or -1 on failure. Not thread-safe for one detector.
int oc_face_plugin_detect(
    OCFaceDetector *detector, const uint8_t *pixels, int width, int height, int stride, int layout, int workingWidth, OCFace *faces,
    int capacity);

void oc_face_plugin_destroy(OCFaceDetector *detector);

#ifdef __cplusplus
}
#endif

#endif
