// Shared between the plug-in's two files: the manager and an open camera.
#ifndef OC_LIBCAMERA_PLUGIN_H
#define OC_LIBCAMERA_PLUGIN_H

#include "OCLibcamera.h"

#include <libcamera/libcamera.h>

#include <atomic>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

// What each version guard covers is listed in docs/ARCHITECTURE.md ("libcamera").
#define OC_LC_VERSION_AT_LEAST(major, minor) \
    (LIBCAMERA_VERSION_MAJOR > (major) || (LIBCAMERA_VERSION_MAJOR == (major) && LIBCAMERA_VERSION_MINOR >= (minor)))

// libcamera before 0.0.5 frees a media device's pending dependencies while udev's device map
// still points at them (fixed upstream by f99b0f7f, "Remove devnum from dependency map"): a
// camera listed when the manager started, unplugged and plugged in again while it runs,
// crashes the process (0.0.3's `cam -m` does the same on vimc). So there the manager runs
// only while it is used (a lookup, an open camera) and the caller hears of plugged cameras
// by watching /dev; later versions keep it running and announce them.
#define OC_LC_MANAGER_KEEPS_RUNNING \
    (OC_LC_VERSION_AT_LEAST(0, 1) || (LIBCAMERA_VERSION_MAJOR == 0 && LIBCAMERA_VERSION_MINOR == 0 && LIBCAMERA_VERSION_PATCH >= 5))

struct OCLcManager {
    /// libcamera's manager, null while idle (see OC_LC_MANAGER_KEEPS_RUNNING). Where it runs
    /// only while used, it changes under `managerLock`, which every call that asks libcamera
    /// holds (`OCLcManagerUse`) so it is not stopped meanwhile; not around `acquire`, which
    /// later versions run on libcamera's thread.
    std::unique_ptr<libcamera::CameraManager> manager;
    std::recursive_mutex managerLock;
    /// Cameras acquired, or being acquired, through this manager (open, or gone and kept:
    /// see oc_lc_close); the manager is not stopped while there are any.
    std::atomic<int> users{0};
    OCLcRemovedCallback removed = nullptr;
    OCLcAddedCallback added = nullptr;
    void *context = nullptr;
    std::string version;
    std::mutex lock;
    /// Open cameras, for the watch thread.
    std::vector<OCLcCamera *> open;
    std::thread watch;
    std::atomic<bool> quitting{false};

    /// libcamera's manager, started now when idle; null when it cannot start (`error` set).
    /// Called inside an `OCLcManagerUse`.
    libcamera::CameraManager *running(int *error = nullptr);
    void cameraRemoved(std::shared_ptr<libcamera::Camera> camera);
    void cameraAdded(std::shared_ptr<libcamera::Camera> camera);
    void watchLoop();
};

/// Holds the manager's `managerLock` for a scope where the manager runs only while used (it
/// must not stop under the caller); from 0.0.5 it never stops, and nothing is locked.
struct OCLcManagerUse {
    std::unique_lock<std::recursive_mutex> guard;
    explicit OCLcManagerUse(OCLcManager *manager) {
        if (!OC_LC_MANAGER_KEEPS_RUNNING) guard = std::unique_lock<std::recursive_mutex>(manager->managerLock);
    }
};

/// One mapped plane of a frame buffer.
struct OCLcPlane {
    const uint8_t *data;
    size_t bytes;
};

struct OCLcCamera {
    OCLcManager *owner = nullptr;
    std::shared_ptr<libcamera::Camera> camera;
    std::unique_ptr<libcamera::CameraConfiguration> configuration;
    std::unique_ptr<libcamera::FrameBufferAllocator> allocator;
    libcamera::Stream *stream = nullptr;
    std::vector<std::unique_ptr<libcamera::Request>> requests;
    std::unordered_map<const libcamera::FrameBuffer *, std::vector<OCLcPlane>> planes;
    /// mmap'ed regions to unmap (address, length).
    std::vector<std::pair<void *, size_t>> mappings;

    std::mutex lock;  // pending, pendingTag, tags
    libcamera::ControlList pending;
    uint64_t pendingTag = 0;
    std::unordered_map<const libcamera::Request *, uint64_t> tags;
    uint64_t completedTag = 0;  // libcamera's thread only

    OCLcFrameCallback callback = nullptr;
    void *context = nullptr;
    std::atomic<bool> running{false};
    /// Requests queued and not yet completed, counted so a stop waits for them: libcamera
    /// 0.0.3 aborts (vimc's IPA proxy, "state_ == ProxyRunning") when a request queued just
    /// before `Camera::stop` is prepared while the stop runs. `running` changes and re-queues
    /// happen under `flightLock`.
    std::mutex flightLock;
    std::condition_variable flightDone;
    int inFlight = 0;
    /// CLOCK_MONOTONIC nanoseconds of the last completed request (watch thread reads it).
    std::atomic<int64_t> lastCompletion{0};
    /// /dev/media* nodes there were when streaming started, and whether the removal was told.
    std::vector<std::string> mediaNodes;
    std::atomic<bool> reportedGone{false};

    void requestCompleted(libcamera::Request *request);
    void landed();
    void freeBuffers();
};

int64_t oc_lc_monotonic_ns();
/// The camera `id` of the running manager (started now when idle), or null. Called inside
/// an `OCLcManagerUse`, which the caller keeps while it uses the camera's manager.
std::shared_ptr<libcamera::Camera> oc_lc_camera(OCLcManager *manager, const char *id);
/// The /dev/media* nodes present now.
std::vector<std::string> oc_lc_media_nodes();
/// Writes the OC_LC_HAS_* controls set in `controls` into `list`.
void oc_lc_fill_controls(const OCLcControls &controls, libcamera::ControlList &list);

#endif
