// The libcamera plug-in, part 2: one acquired camera, configured with one stream, its
// buffers mapped, its requests cycling. Each completed request is handed to the caller's
// callback (on libcamera's thread) and queued again carrying the controls queued since.
#include "Plugin.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <algorithm>
#include <map>

using namespace libcamera;

std::unique_ptr<CameraConfiguration> oc_lc_generate(Camera &camera, int role);

extern "C" OCLcCamera *oc_lc_open(OCLcManager *manager, const char *id, int *error) {
    std::shared_ptr<Camera> camera;
    {
        OCLcManagerUse use(manager);
        camera = oc_lc_camera(manager, id);
        if (!camera) {
            if (error != nullptr) *error = ENODEV;
            return nullptr;
        }
        // The manager runs as long as a camera of it is acquired (oc_lc_manager_idle),
        // counted from here so it cannot stop while `acquire` runs without the lock.
        manager->users++;
    }
    int result = camera->acquire();
    if (result < 0) {
        if (error != nullptr) *error = -result;
        OCLcManagerUse use(manager);
        camera.reset();
        manager->users--;
        return nullptr;
    }
    auto open = new OCLcCamera();
    open->owner = manager;
    open->camera = camera;
    camera->requestCompleted.connect(open, &OCLcCamera::requestCompleted);
    std::lock_guard<std::mutex> guard(manager->lock);
    manager->open.push_back(open);
    return open;
}

void OCLcCamera::freeBuffers() {
    requests.clear();
    planes.clear();
    tags.clear();
    for (auto &[address, length] : mappings) munmap(address, length);
    mappings.clear();
    if (allocator && stream != nullptr) allocator->free(stream);
    allocator.reset();
    stream = nullptr;
}

// Maps every plane of `buffer`: planes that share a dmabuf are mapped once, as far as the
// last of them reaches.
static bool map_buffer(OCLcCamera &open, const FrameBuffer &buffer) {
    std::map<int, size_t> extents;
    for (const FrameBuffer::Plane &plane : buffer.planes()) {
        size_t end = (size_t)plane.offset + plane.length;
        extents[plane.fd.get()] = std::max(extents[plane.fd.get()], end);
    }
    std::map<int, uint8_t *> addresses;
    for (auto &[fd, length] : extents) {
        void *address = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
        if (address == MAP_FAILED) return false;
        open.mappings.emplace_back(address, length);
        addresses[fd] = (uint8_t *)address;
    }
    std::vector<OCLcPlane> &planes = open.planes[&buffer];
    for (const FrameBuffer::Plane &plane : buffer.planes()) {
        planes.push_back(OCLcPlane{addresses[plane.fd.get()] + plane.offset, plane.length});
    }
    return true;
}

extern "C" int oc_lc_configure(OCLcCamera *open, int role, OCLcStreamFormat *format, int *stride, int *bufferCount) {
    if (open->running) return -EBUSY;
    open->freeBuffers();
    std::unique_ptr<CameraConfiguration> configuration = oc_lc_generate(*open->camera, role);
    if (!configuration || configuration->empty()) return -EINVAL;
    StreamConfiguration &asked = configuration->at(0);
    asked.pixelFormat = PixelFormat(format->fourcc, format->modifier);
    asked.size = Size((unsigned)format->width, (unsigned)format->height);
    CameraConfiguration::Status status = configuration->validate();
    if (status == CameraConfiguration::Invalid) return -EINVAL;
    int result = open->camera->configure(configuration.get());
    if (result < 0) return result;
    const StreamConfiguration &kept = configuration->at(0);
    format->fourcc = kept.pixelFormat.fourcc();
    format->modifier = kept.pixelFormat.modifier();
    format->width = (int)kept.size.width;
    format->height = (int)kept.size.height;
    *stride = (int)kept.stride;
    open->stream = kept.stream();
    open->allocator = std::make_unique<FrameBufferAllocator>(open->camera);
    result = open->allocator->allocate(open->stream);
    if (result <= 0) {
        open->allocator.reset();
        open->stream = nullptr;
        return result < 0 ? result : -ENOMEM;
    }
    for (const std::unique_ptr<FrameBuffer> &buffer : open->allocator->buffers(open->stream)) {
        std::unique_ptr<Request> request = open->camera->createRequest();
        if (!request || request->addBuffer(open->stream, buffer.get()) < 0 || !map_buffer(*open, *buffer)) {
            open->freeBuffers();
            return -ENOMEM;
        }
        open->requests.push_back(std::move(request));
    }
    *bufferCount = (int)open->requests.size();
    open->configuration = std::move(configuration);
    return status == CameraConfiguration::Adjusted ? 1 : 0;
}

extern "C" int oc_lc_start(OCLcCamera *open, const OCLcControls *initial, OCLcFrameCallback callback, void *context) {
    if (open->stream == nullptr) return -EINVAL;
    if (open->running) return -EBUSY;
    open->callback = callback;
    open->context = context;
    open->completedTag = 0;
    ControlList controls(open->camera->controls());
    if (initial != nullptr) oc_lc_fill_controls(*initial, controls);
    open->mediaNodes = oc_lc_media_nodes();
    open->lastCompletion = oc_lc_monotonic_ns();
    int result = open->camera->start(&controls);
    if (result < 0) return result;
    {
        std::lock_guard<std::mutex> guard(open->flightLock);
        open->running = true;
        open->inFlight = 0;
    }
    bool first = true;
    for (std::unique_ptr<Request> &request : open->requests) {
        request->reuse(Request::ReuseBuffers);
        // The first request carries the initial controls too: some pipeline handlers
        // (vimc in 0.0.3) ignore the ones given to start().
        if (first) {
            for (const auto &[id, value] : controls) request->controls().set(id, value);
            first = false;
        }
        {
            std::lock_guard<std::mutex> guard(open->flightLock);
            result = open->camera->queueRequest(request.get());
            if (result >= 0) open->inFlight++;
        }
        if (result < 0) {
            oc_lc_stop(open);
            return result;
        }
    }
    return 0;
}

extern "C" void oc_lc_queue_controls(OCLcCamera *open, const OCLcControls *controls, uint64_t tag) {
    std::lock_guard<std::mutex> guard(open->lock);
    oc_lc_fill_controls(*controls, open->pending);
    open->pendingTag = std::max(open->pendingTag, tag);
}

template <typename T>
static bool read_metadata(const ControlList &metadata, const Control<T> &control, T &into) {
    std::optional<T> value = metadata.get(control);
    if (!value) return false;
    into = *value;
    return true;
}

// On libcamera's thread (the pipeline handler's), once per request.
void OCLcCamera::requestCompleted(Request *request) {
    if (request->status() == Request::RequestCancelled || !running.load()) {
        landed();
        return;
    }
    lastCompletion = oc_lc_monotonic_ns();
    OCLcFrame frame;
    memset(&frame, 0, sizeof frame);
    {
        std::lock_guard<std::mutex> guard(lock);
        auto found = tags.find(request);
        if (found != tags.end()) completedTag = std::max(completedTag, found->second);
    }
    frame.tag = completedTag;
    const FrameBuffer *buffer = request->findBuffer(stream);
    if (buffer != nullptr) {
        const FrameMetadata &meta = buffer->metadata();
        frame.sequence = meta.sequence;
        frame.timestamp = (int64_t)meta.timestamp;
        frame.error = meta.status != FrameMetadata::FrameSuccess;
        auto found = planes.find(buffer);
        if (found != planes.end()) {
            frame.planeCount = (int)std::min<size_t>(found->second.size(), 3);
            for (int i = 0; i < frame.planeCount; i++) {
                frame.planes[i] = found->second[i].data;
                size_t used = i < (int)meta.planes().size() ? meta.planes()[i].bytesused : 0;
                frame.planeBytes[i] = used > 0 ? std::min(used, found->second[i].bytes) : found->second[i].bytes;
            }
        }
    }
    const ControlList &metadata = request->metadata();
    if (read_metadata(metadata, controls::SensorTimestamp, frame.sensorTimestamp)) frame.metadata |= OC_LC_MD_SENSOR_TIMESTAMP;
    if (read_metadata(metadata, controls::ExposureTime, frame.exposureTime)) frame.metadata |= OC_LC_MD_EXPOSURE_TIME;
    if (read_metadata(metadata, controls::AnalogueGain, frame.analogueGain)) frame.metadata |= OC_LC_MD_ANALOGUE_GAIN;
    if (read_metadata(metadata, controls::ColourTemperature, frame.colourTemperature)) frame.metadata |= OC_LC_MD_COLOUR_TEMPERATURE;
    if (read_metadata(metadata, controls::LensPosition, frame.lensPosition)) frame.metadata |= OC_LC_MD_LENS_POSITION;
    if (read_metadata(metadata, controls::FrameDuration, frame.frameDuration)) frame.metadata |= OC_LC_MD_FRAME_DURATION;
    if (auto gains = metadata.get(controls::ColourGains)) {
        frame.colourGains[0] = (*gains)[0];
        frame.colourGains[1] = (*gains)[1];
        frame.metadata |= OC_LC_MD_COLOUR_GAINS;
    }
    if (auto levels = metadata.get(controls::SensorBlackLevels)) {
        for (int i = 0; i < 4; i++) frame.sensorBlackLevels[i] = (*levels)[i];
        frame.metadata |= OC_LC_MD_SENSOR_BLACK_LEVELS;
    }
    if (auto matrix = metadata.get(controls::ColourCorrectionMatrix)) {
        for (int i = 0; i < 9; i++) frame.colourCorrectionMatrix[i] = (*matrix)[i];
        frame.metadata |= OC_LC_MD_COLOUR_CORRECTION_MATRIX;
    }
    if (auto crop = metadata.get(controls::ScalerCrop)) {
        frame.scalerCrop[0] = crop->x;
        frame.scalerCrop[1] = crop->y;
        frame.scalerCrop[2] = (int32_t)crop->width;
        frame.scalerCrop[3] = (int32_t)crop->height;
        frame.metadata |= OC_LC_MD_SCALER_CROP;
    }
    callback(context, &frame);
    std::lock_guard<std::mutex> flight(flightLock);
    if (!running.load()) {
        inFlight--;
        flightDone.notify_all();
        return;
    }
    request->reuse(Request::ReuseBuffers);
    {
        // The controls queued since the previous request travel with this one.
        std::lock_guard<std::mutex> guard(lock);
        for (const auto &[id, value] : pending) request->controls().set(id, value);
        pending.clear();
        tags[request] = pendingTag;
    }
    if (camera->queueRequest(request) < 0) {
        inFlight--;
        flightDone.notify_all();
    }
}

// A request came back and is not queued again. On libcamera's thread.
void OCLcCamera::landed() {
    std::lock_guard<std::mutex> flight(flightLock);
    inFlight--;
    flightDone.notify_all();
}

extern "C" void oc_lc_stop(OCLcCamera *open) {
    {
        std::lock_guard<std::mutex> flight(open->flightLock);
        if (!open->running.exchange(false)) return;
    }
    // libcamera 0.0.3 aborts in PipelineHandler::stop when a device vanished under queued
    // requests that libcamera was not told of (no udevd): a camera found gone by the watch
    // is left as it is, its requests and buffers kept (oc_lc_close) since they never complete.
    if (open->reportedGone.load()) return;
    // The requests queued before now come back (none is queued again) before libcamera is
    // told to stop, so none is still being prepared while it stops (see inFlight). A camera
    // that sends nothing more is stopped after two seconds all the same.
    {
        std::unique_lock<std::mutex> flight(open->flightLock);
        open->flightDone.wait_for(flight, std::chrono::seconds(2), [open] { return open->inFlight <= 0; });
    }
    // Returns once every request completed (cancelled); a callback in progress on
    // libcamera's thread has returned by then.
    open->camera->stop();
}

extern "C" void oc_lc_close(OCLcCamera *open) {
    if (open == nullptr) return;
    oc_lc_stop(open);
    {
        std::lock_guard<std::mutex> guard(open->owner->lock);
        auto &list = open->owner->open;
        list.erase(std::remove(list.begin(), list.end(), open), list.end());
    }
    open->camera->requestCompleted.disconnect(open);
    if (open->reportedGone.load() && !open->requests.empty()) {
        // Gone while libcamera may still hold its requests (see oc_lc_stop): this object,
        // with the requests, buffers and mappings, stays allocated for good, and so the
        // manager keeps running (it stays a user).
        return;
    }
    OCLcManager *manager = open->owner;
    open->freeBuffers();
    open->configuration.reset();
    open->camera->release();
    {
        OCLcManagerUse use(manager);
        open->camera.reset();
        manager->users--;
    }
    delete open;
}
