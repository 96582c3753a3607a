// OpenCapture's PipeWire plug-in (libOpenCapturePipeWire.so): a plain C API over libpipewire
// that hides the SPA pod builder and parser macros, which do not import into Swift.
//
// This header includes nothing of PipeWire's, so the loader (CPipeWireRuntime) and Swift see
// only these types; the plug-in is loaded with dlopen and nothing links it.
//
// Threads: each context runs a PipeWire thread loop of its own (a thread named
// "OpenCapture.pipewire"). Every callback below runs on that thread, and must not call back
// into this API except ocpw_publisher_push and the *_dropped counters. The other functions
// are called on any other thread; they take the loop's lock for the time they need it.
#ifndef OC_PIPEWIRE_H
#define OC_PIPEWIRE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The plug-in's API version; the loader refuses a plug-in of another.
#define OCPW_API_VERSION 1

/// Pixel formats carried (PipeWire's SPA_VIDEO_FORMAT_* and MJPEG, renumbered).
typedef enum {
    OCPW_FORMAT_UNKNOWN = 0,
    OCPW_FORMAT_NV12 = 1,
    OCPW_FORMAT_I420 = 2,
    OCPW_FORMAT_YUY2 = 3,
    OCPW_FORMAT_UYVY = 4,
    OCPW_FORMAT_RGB = 5,   // R, G, B bytes
    OCPW_FORMAT_BGR = 6,   // B, G, R bytes
    OCPW_FORMAT_BGRx = 7,  // B, G, R, padding bytes
    OCPW_FORMAT_BGRA = 8,
    OCPW_FORMAT_MJPEG = 9,
} OCPWFormat;

/// Most frame rates one mode lists.
#define OCPW_MAX_RATES 8

/// One size of one format a node offers. Rates are frames per second as fractions
/// (`rate_num[i] / rate_den[i]`); when `rate_is_range` is set, entry 0 is the lowest and
/// entry 1 the highest of a continuous range.
typedef struct {
    int32_t format;
    int32_t width;
    int32_t height;
    int32_t rate_count;
    int32_t rate_is_range;
    int32_t rate_num[OCPW_MAX_RATES];
    int32_t rate_den[OCPW_MAX_RATES];
} OCPWMode;

/// A camera node in the graph.
typedef struct {
    uint32_t id;
    /// `object.serial`: unlike the id, never reused for another node.
    uint64_t serial;
    char name[128];
    char description[256];
    char media_class[64];
    char role[32];
    /// `device.api` (v4l2, libcamera) or empty for a stream of an application.
    char api[32];
} OCPWNode;

/// One frame. `planes` entries of `data`/`stride`/`size` are set; `data` is valid only
/// during the callback (or the push) it is passed to.
typedef struct {
    int32_t planes;
    const uint8_t *data[4];
    int32_t stride[4];
    uint32_t size[4];
    /// The producer's `spa_meta_header` pts (nanoseconds) and sequence, or -1 when the buffer
    /// carried no header.
    int64_t pts;
    int64_t sequence;
    /// CLOCK_MONOTONIC nanoseconds when the plug-in took the buffer.
    int64_t host_time;
    /// Non-zero when the producer flagged the buffer corrupted.
    int32_t corrupted;
} OCPWFrame;

typedef struct OCPWContext OCPWContext;
typedef struct OCPWCapture OCPWCapture;
typedef struct OCPWPublisher OCPWPublisher;

/// Stream states reported through OCPWStateCallback.
typedef enum {
    /// Frames flow (a format was negotiated and the stream runs).
    OCPW_STATE_STREAMING = 1,
    /// A consumer or the producer paused the stream (no link, or the link went away).
    OCPW_STATE_PAUSED = 2,
    /// The node read from was removed: its producer stopped or died.
    OCPW_STATE_DISCONNECTED = 3,
    /// PipeWire reported an error; `message` says what.
    OCPW_STATE_ERROR = 4,
    /// The daemon went away (the connection broke).
    OCPW_STATE_DAEMON_GONE = 5,
} OCPWState;

/// A camera node appeared (`added` 1) or went (`added` 0). On the loop thread.
typedef void (*OCPWNodeCallback)(void *user, int32_t added, const OCPWNode *node);
/// A frame arrived. On the loop thread.
typedef void (*OCPWFrameCallback)(void *user, const OCPWFrame *frame);
/// A stream changed state. On the loop thread.
typedef void (*OCPWStateCallback)(void *user, int32_t state, const char *message);

/// The plug-in's API version (OCPW_API_VERSION).
int32_t ocpw_api_version(void);

/// Connects to a daemon: the socket at `remote` (a name in the runtime directory or an
/// absolute path; NULL for PIPEWIRE_REMOTE or the default), or, when `fd` >= 0, the
/// connection the Camera portal handed out (OpenPipeWireRemote; the fd is taken over).
/// Camera nodes there now and later are reported through `nodes` (those there now before
/// this returns), and their removal too; `daemon_gone` hears a broken connection. NULL on
/// failure, with the reason in `error`.
OCPWContext *ocpw_connect(const char *remote, int fd, OCPWNodeCallback nodes, OCPWStateCallback daemon_gone, void *user, char *error, size_t error_capacity);

/// What the Camera portal answered (ocpw_portal_open).
typedef enum {
    /// Access granted; the fd of a PipeWire connection was written.
    OCPW_PORTAL_GRANTED = 0,
    /// The user (or the portal's stored permission) denied access to cameras.
    OCPW_PORTAL_DENIED = 1,
    /// The portal ended the request otherwise (its Response 2), or broke off.
    OCPW_PORTAL_FAILED = 2,
    /// The portal says the machine has no camera (IsCameraPresent false).
    OCPW_PORTAL_NO_CAMERA = 3,
    /// No session bus, or no Camera portal on it.
    OCPW_PORTAL_UNAVAILABLE = 4,
} OCPWPortalResult;

/// Asks xdg-desktop-portal's Camera portal (org.freedesktop.portal.Camera on the session bus)
/// for a PipeWire connection, as a sandboxed (Flatpak, Snap) app must: IsCameraPresent, then
/// AccessCamera (which may show the user a dialog: this waits for its answer, up to
/// `timeout_ms`), then OpenPipeWireRemote. `bus_address` is a D-Bus address, NULL for the
/// session bus (DBUS_SESSION_BUS_ADDRESS). On OCPW_PORTAL_GRANTED `*fd` is the connection's
/// fd (the caller owns it; ocpw_connect takes it over); otherwise `error` says why. Blocks
/// the calling thread; call it on any thread but a loop thread.
int32_t ocpw_portal_open(const char *bus_address, int32_t timeout_ms, int *fd, char *error, size_t error_capacity);

/// Disconnects and stops the loop thread; no callback of the context runs after it returns.
/// Captures and publishers of the context must be stopped first.
void ocpw_disconnect(OCPWContext *context);

/// The formats node `node_id` offers (its EnumFormat params, raw and MJPEG, continuous sizes
/// sampled at common sizes), up to `capacity` written; the count there are, or -1 if the
/// node does not answer.
int32_t ocpw_node_modes(OCPWContext *context, uint32_t node_id, OCPWMode *modes, int32_t capacity);

/// Reads node `node_id` in `mode` (format and size fixed; the rate closest to
/// `rate_num / rate_den`, 0/0 for any). The plug-in links the node to the capture itself
/// (link-factory), so no session manager is needed and none links it twice. Frames go to
/// `frames`, state changes to `state`. The negotiated mode is written to `negotiated` once
/// known (ocpw_capture_negotiated). NULL on failure, with the reason in `error`.
OCPWCapture *ocpw_capture_start(OCPWContext *context, uint32_t node_id, const OCPWMode *mode, int32_t rate_num, int32_t rate_den,
                                OCPWFrameCallback frames, OCPWStateCallback state, void *user, char *error, size_t error_capacity);

/// The format the producer agreed to; 0 until one is negotiated, then 1.
int32_t ocpw_capture_negotiated(OCPWCapture *capture, OCPWMode *mode);

/// Stops reading, removes the link; no callback of the capture runs after it returns.
void ocpw_capture_stop(OCPWCapture *capture);

/// Most menu entries one control lists.
#define OCPW_MAX_MENU 32

/// What a control's value is. Menus carry Int values with names; floats travel as
/// thousandths of their value.
typedef enum {
    OCPW_CONTROL_INT = 1,
    OCPW_CONTROL_BOOL = 2,
    OCPW_CONTROL_MENU = 3,
    OCPW_CONTROL_LONG = 4,
    OCPW_CONTROL_FLOAT = 5,
} OCPWControlKind;

/// One property a node describes in its PropInfo params (SPA_PROP_brightness, a V4L2
/// control the SPA v4l2 node passes on, a test source's pattern...).
typedef struct {
    /// The SPA property id (SPA_PROP_*, SPA_PROP_START_CUSTOM + n).
    uint32_t id;
    int32_t kind;
    /// The node's description of it, e.g. "Brightness".
    char name[128];
    int64_t minimum;
    int64_t maximum;
    int64_t step;
    int64_t default_value;
    int32_t menu_count;
    int64_t menu_values[OCPW_MAX_MENU];
    char menu_names[OCPW_MAX_MENU][64];
} OCPWControl;

/// The controls node `node_id` describes (its PropInfo params of a type this API carries),
/// up to `capacity` written; the count there are, or -1 if the node does not answer.
int32_t ocpw_node_controls(OCPWContext *context, uint32_t node_id, OCPWControl *controls, int32_t capacity);

/// Property `prop_id`'s value as the node's Props param reports it, into `value`: 1 when
/// read, 0 when the node does not report it, -1 if the node does not answer. PipeWire
/// 0.3.65's nodes report few: the SPA v4l2 node none of the driver's controls, and the daemon
/// answers from a cache the test source does not refresh after a write.
int32_t ocpw_node_control_value(OCPWContext *context, uint32_t node_id, uint32_t prop_id, int64_t *value);

/// Writes property `prop_id` (as `kind` says): 0 when the daemon took the write, else a
/// negative errno: the one it reported when it refused it, -ENOENT for a node that is gone,
/// -ETIMEDOUT or -EPIPE when the daemon did not answer. (The SPA v4l2 node takes a write the
/// driver refuses without an error.)
int32_t ocpw_node_set_control(OCPWContext *context, uint32_t node_id, uint32_t prop_id, int32_t kind, int64_t value);

/// Publishes a camera node: `media.class=Video/Source`, `media.role=Camera`, named `name`,
/// offering each format of `formats` (`format_count` OCPWFormat values, preferred first) at
/// `width` x `height` and `rate_num / rate_den` frames per second. Consumers negotiate one of
/// them (all consumers at a time share one); `state` hears streaming starting and pausing as
/// they come and go, and OCPW_STATE_DISCONNECTED if the daemon removes the node. The node
/// drives the graph its consumers join: one cycle per frame pushed. Returns once the node
/// exists (ocpw_publisher_node_id); NULL on failure, with the reason in `error`.
OCPWPublisher *ocpw_publisher_create(OCPWContext *context, const char *name, const char *description, const int32_t *formats,
                                     int32_t format_count, int32_t width, int32_t height, int32_t rate_num, int32_t rate_den,
                                     OCPWStateCallback state, void *user, char *error, size_t error_capacity);

/// The node's id in the graph (0 until the daemon made it).
uint32_t ocpw_publisher_node_id(OCPWPublisher *publisher);

/// The OCPWFormat consumers negotiated, or OCPW_FORMAT_UNKNOWN while there is none.
int32_t ocpw_publisher_format(OCPWPublisher *publisher);

/// Hands one frame (at the published size, in the negotiated format, or NV12 when I420 or
/// YUY2 was negotiated: converted while copied) to the node. Never waits: the frame is
/// copied into the publisher's slot and the loop thread sends it in the cycle it asks for;
/// a frame still waiting there is replaced and counted dropped, as is one that finds the
/// slot busy, another format negotiated, or no free buffer (consumers behind). Returns 1
/// when taken, 0 when not (while no consumer streams, frames are not taken and not counted
/// as dropped). Consumers get each plane's rows padded to 4 bytes, planes one after the
/// other, and the frame's `pts` and `sequence` in the buffer's spa_meta_header.
/// Callable on any thread, including from a callback.
int32_t ocpw_publisher_push(OCPWPublisher *publisher, int32_t format, const OCPWFrame *frame);

/// Frames sent to consumers and frames dropped so far.
uint64_t ocpw_publisher_sent(OCPWPublisher *publisher);
uint64_t ocpw_publisher_dropped(OCPWPublisher *publisher);

/// Removes the node; no callback of the publisher runs after it returns.
void ocpw_publisher_destroy(OCPWPublisher *publisher);

#ifdef __cplusplus
}
#endif

#endif
