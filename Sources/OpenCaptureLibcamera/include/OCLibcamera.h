// The libcamera plug-in's C API: libcamera's C++ objects (CameraManager, Camera, Request,
// FrameBufferAllocator) behind plain C, built as its own shared library
// (libOpenCaptureLibcamera.so) and loaded with dlopen by CLibcameraRuntime, so nothing that
// links OpenCapture needs libcamera to build or start.
#ifndef OC_LIBCAMERA_H
#define OC_LIBCAMERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped whenever a function or struct here changes: a program refuses a plug-in of
/// another version (a stale libOpenCaptureLibcamera.so beside it) rather than misread it.
#define OC_LC_API_VERSION 2

typedef struct OCLcManager OCLcManager;
typedef struct OCLcCamera OCLcCamera;

/// One camera as libcamera describes it.
typedef struct {
    /// libcamera's camera ID, e.g. "platform/vimc.0 Sensor B".
    char id[256];
    /// properties::Model, or "" when the pipeline gives none.
    char model[128];
    /// properties::Location: 0 front, 1 back, 2 external, -1 not given.
    int location;
    /// properties::Rotation in degrees, -1 when not given.
    int rotation;
    /// The pixel array's active size (properties::PixelArrayActiveAreas' first area, else
    /// PixelArraySize), 0 when not given.
    int pixelArrayWidth;
    int pixelArrayHeight;
} OCLcCameraInfo;

/// Stream roles, as libcamera's StreamRole.
enum { OC_LC_ROLE_RAW = 0, OC_LC_ROLE_STILL = 1, OC_LC_ROLE_VIDEO = 2, OC_LC_ROLE_VIEWFINDER = 3 };

/// One size of one pixel format a role's stream can be configured to.
typedef struct {
    /// libcamera's PixelFormat FourCC (DRM's: 'BG24' is R, G, B bytes in memory).
    uint32_t fourcc;
    uint64_t modifier;
    int width;
    int height;
} OCLcStreamFormat;

/// What the camera's controls() offers: a `has` bit per control and its limits.
enum {
    OC_LC_HAS_AE_ENABLE = 1u << 0,
    OC_LC_HAS_EXPOSURE_TIME = 1u << 1,
    OC_LC_HAS_ANALOGUE_GAIN = 1u << 2,
    OC_LC_HAS_EXPOSURE_VALUE = 1u << 3,
    OC_LC_HAS_AWB_ENABLE = 1u << 4,
    OC_LC_HAS_COLOUR_GAINS = 1u << 5,
    OC_LC_HAS_COLOUR_TEMPERATURE = 1u << 6,
    OC_LC_HAS_AF_MODE = 1u << 7,
    OC_LC_HAS_LENS_POSITION = 1u << 8,
    OC_LC_HAS_SCALER_CROP = 1u << 9,
    OC_LC_HAS_FRAME_DURATION_LIMITS = 1u << 10,
    OC_LC_HAS_BRIGHTNESS = 1u << 11,
    OC_LC_HAS_CONTRAST = 1u << 12,
    OC_LC_HAS_SATURATION = 1u << 13,
};

typedef struct {
    uint32_t has;
    /// Microseconds.
    int32_t minExposureTime, maxExposureTime;
    float minAnalogueGain, maxAnalogueGain;
    float minExposureValue, maxExposureValue;
    int32_t minColourTemperature, maxColourTemperature;
    float minLensPosition, maxLensPosition;
    /// Microseconds: the shortest and longest frame the camera can make.
    int64_t minFrameDuration, maxFrameDuration;
    /// ScalerCrop's largest rectangle (x, y, width, height), the sensor area a zoom crops.
    int32_t maxScalerCrop[4];
    float minBrightness, maxBrightness, defaultBrightness;
    float minContrast, maxContrast, defaultContrast;
    float minSaturation, maxSaturation, defaultSaturation;
} OCLcControlLimits;

/// Controls for the next request; `set` says which fields count (OC_LC_HAS_* bits).
typedef struct {
    uint32_t set;
    int aeEnable;
    int32_t exposureTime;  // microseconds
    float analogueGain;
    float exposureValue;
    int awbEnable;
    float colourGains[2];  // red, blue
    int32_t colourTemperature;
    int afMode;  // controls::AfModeEnum: 0 manual, 1 auto, 2 continuous
    float lensPosition;  // dioptres
    int32_t scalerCrop[4];
    int64_t frameDurationLimits[2];  // microseconds
    float brightness, contrast, saturation;
} OCLcControls;

/// Which metadata a frame's request brought back (OC_LC_MD_* bits) and the values.
enum {
    OC_LC_MD_SENSOR_TIMESTAMP = 1u << 0,
    OC_LC_MD_EXPOSURE_TIME = 1u << 1,
    OC_LC_MD_ANALOGUE_GAIN = 1u << 2,
    OC_LC_MD_COLOUR_TEMPERATURE = 1u << 3,
    OC_LC_MD_COLOUR_GAINS = 1u << 4,
    OC_LC_MD_LENS_POSITION = 1u << 5,
    OC_LC_MD_FRAME_DURATION = 1u << 6,
    OC_LC_MD_SCALER_CROP = 1u << 7,
    OC_LC_MD_SENSOR_BLACK_LEVELS = 1u << 8,
    OC_LC_MD_COLOUR_CORRECTION_MATRIX = 1u << 9,
};

/// One completed request: the frame's planes (mapped, valid only during the callback) and
/// its metadata.
typedef struct {
    /// The buffer's sequence number (the driver's frame counter).
    uint64_t sequence;
    /// FrameMetadata::timestamp, nanoseconds on CLOCK_MONOTONIC (the end of exposure's
    /// start on most drivers); controls::SensorTimestamp when `metadata` has it.
    int64_t timestamp;
    int64_t sensorTimestamp;
    uint32_t metadata;
    int32_t exposureTime;  // microseconds
    float analogueGain;
    int32_t colourTemperature;
    float colourGains[2];
    float lensPosition;
    int64_t frameDuration;  // microseconds
    int32_t scalerCrop[4];
    /// controls::SensorBlackLevels: R, Gr, Gb, B as numbers out of 16 bits (a 10-bit
    /// sensor's 64 is 4096).
    int32_t sensorBlackLevels[4];
    /// controls::ColourCorrectionMatrix: camera RGB → sRGB, row-major.
    float colourCorrectionMatrix[9];
    /// The highest `tag` of the controls this request carried (oc_lc_queue_controls), 0 for none.
    uint64_t tag;
    /// 1 when the frame's buffer reported an error (its data may be corrupt).
    int error;
    int planeCount;
    const uint8_t *planes[3];
    size_t planeBytes[3];
} OCLcFrame;

/// Called on libcamera's thread for every completed request while running.
typedef void (*OCLcFrameCallback)(void *context, const OCLcFrame *frame);
/// Called on libcamera's thread (or the plug-in's watch thread) when a camera goes away.
typedef void (*OCLcRemovedCallback)(void *context, const char *id);
/// Called on libcamera's thread when a camera is plugged in after the manager started (it
/// is in `oc_lc_cameras` by then). libcamera hears of it from udev's monitor: without
/// udevd it is never called. The callback must not call back into libcamera on this thread.
typedef void (*OCLcAddedCallback)(void *context, const char *id);

/// Starts libcamera's CameraManager; NULL on failure (`error` gets the errno). `removed`
/// is told of every camera unplugged later, `added` of every camera plugged in later (both
/// with `context`).
OCLcManager *oc_lc_manager_create(OCLcRemovedCallback removed, OCLcAddedCallback added, void *context, int *error);
void oc_lc_manager_destroy(OCLcManager *manager);
/// Whether libcamera's manager runs for the process's life (libcamera 0.0.5 and later),
/// announcing cameras plugged in later through `added`; 0 when it runs only while used
/// (before 0.0.5, whose udev hot-plug handling can crash: Plugin.h), where the caller
/// watches /dev for media nodes and looks again.
int oc_lc_manager_keeps_running(OCLcManager *manager);
/// Stops libcamera's manager when no camera is acquired, where it runs only while used
/// (else nothing); the next call that asks libcamera starts it again, finding cameras anew.
void oc_lc_manager_idle(OCLcManager *manager);
/// The plug-in's API version (OC_LC_API_VERSION).
int32_t oc_lc_api_version(void);
/// The libcamera version string ("v0.0.3").
const char *oc_lc_version(OCLcManager *manager);
/// Cameras known now; fills up to `capacity` infos and returns the count there are.
int oc_lc_cameras(OCLcManager *manager, OCLcCameraInfo *infos, int capacity);
/// The formats of `role`'s stream (StreamFormats of a generated configuration), up to
/// `capacity`; returns the count there are, or a negative errno.
int oc_lc_stream_formats(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *formats, int capacity);
/// The default configuration libcamera generates for `role` (fourcc, width, height).
int oc_lc_default_format(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *format);
int oc_lc_control_limits(OCLcManager *manager, const char *id, OCLcControlLimits *limits);
/// Whether `role`'s stream takes `format` as it is: validates a configuration of it without
/// acquiring the camera, writes back what libcamera would stream (fourcc, width, height).
/// Returns 0 when taken as asked, 1 when adjusted, a negative errno when impossible.
int oc_lc_try_format(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *format);

/// Acquires the camera for this process; NULL with `error` set (EBUSY: another process
/// or handle has it, ENODEV: gone).
OCLcCamera *oc_lc_open(OCLcManager *manager, const char *id, int *error);
/// Configures one stream of `role` at the format asked; libcamera may adjust it: the
/// format it will stream is written back (fourcc, width, height) with the row stride.
/// Returns 0 when taken as asked, 1 when adjusted, a negative errno when impossible.
int oc_lc_configure(OCLcCamera *camera, int role, OCLcStreamFormat *format, int *stride, int *bufferCount);
/// Starts streaming with `initial` controls (may be NULL); frames go to `callback`.
int oc_lc_start(OCLcCamera *camera, const OCLcControls *initial, OCLcFrameCallback callback, void *context);
/// Merges `controls` into what the next queued request carries; the frame of that request
/// reports `tag` (the highest queued).
void oc_lc_queue_controls(OCLcCamera *camera, const OCLcControls *controls, uint64_t tag);
/// Stops streaming; no callback runs after it returns.
void oc_lc_stop(OCLcCamera *camera);
/// Releases and frees the camera (stopping it first).
void oc_lc_close(OCLcCamera *camera);

#ifdef __cplusplus
}
#endif

#endif
