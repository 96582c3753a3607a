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
#include <thread>
#include <unordered_map>
#include <vector>

// What each version guard covers is listed in docs/ARCHITECTURE.md ("libcamera").
#define OC_LC_VERSION_AT_LEAST(major, minor) \
    (LIBCAMERA_VERSION_MAJOR > (major) || (LIBCAMERA_VERSION_MAJOR == (major) && LIBCAMERA_VERSION_MINOR >= (minor)))

struct OCLcManager {
    std::unique_ptr<libcamera::CameraManager> manager;
    OCLcRemovedCallback removed = nullptr;
    void *context = nullptr;
    std::string version;
    std::mutex lock;
    /// Open cameras, for the watch thread.
    std::vector<OCLcCamera *> open;
    std::thread watch;
    std::atomic<bool> quitting{false};

    void cameraRemoved(std::shared_ptr<libcamera::Camera> camera);
    void watchLoop();
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
/// The /dev/media* nodes present now.
std::vector<std::string> oc_lc_media_nodes();
/// Writes the OC_LC_HAS_* controls set in `controls` into `list`.
void oc_lc_fill_controls(const OCLcControls &controls, libcamera::ControlList &list);

#endif
