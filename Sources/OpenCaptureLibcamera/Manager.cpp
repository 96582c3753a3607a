// The libcamera plug-in, part 1: the CameraManager, the cameras it lists, what their stream
// roles and controls offer, and unplug detection. Part 2 (Camera.cpp) streams.
#include "Plugin.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <chrono>

using namespace libcamera;

int64_t oc_lc_monotonic_ns() {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

std::vector<std::string> oc_lc_media_nodes() {
    std::vector<std::string> nodes;
    DIR *dev = opendir("/dev");
    if (dev == nullptr) return nodes;
    while (struct dirent *entry = readdir(dev)) {
        if (strncmp(entry->d_name, "media", 5) == 0) nodes.push_back(std::string("/dev/") + entry->d_name);
    }
    closedir(dev);
    return nodes;
}

void OCLcManager::cameraRemoved(std::shared_ptr<Camera> camera) {
    {
        std::lock_guard<std::mutex> guard(lock);
        for (OCLcCamera *open : open) {
            if (open->camera == camera) open->reportedGone = true;
        }
    }
    if (removed != nullptr) removed(context, camera->id().c_str());
}

void OCLcManager::cameraAdded(std::shared_ptr<Camera> camera) {
    if (added != nullptr) added(context, camera->id().c_str());
}

// libcamera learns of unplugs from udev's monitor, which needs udevd. Where there is none
// (containers, the test VM), a streaming camera whose requests stopped completing while a
// media node it started with vanished is taken as gone: twice the longest frame without a
// completion (at least 500 ms) and a node missing.
void OCLcManager::watchLoop() {
    while (!quitting.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::vector<std::string> gone;
        {
            std::lock_guard<std::mutex> guard(lock);
            int64_t now = oc_lc_monotonic_ns();
            for (OCLcCamera *open : open) {
                if (!open->running.load() || open->reportedGone.load()) continue;
                if (now - open->lastCompletion.load() < 500000000) continue;
                bool missing = std::any_of(open->mediaNodes.begin(), open->mediaNodes.end(), [](const std::string &node) {
                    struct stat s;
                    return stat(node.c_str(), &s) != 0;
                });
                if (!missing) continue;
                open->reportedGone = true;
                gone.push_back(open->camera->id());
            }
        }
        // Told without the lock held: the callback may close the camera.
        for (const std::string &id : gone) {
            if (removed != nullptr) removed(context, id.c_str());
        }
    }
}

CameraManager *OCLcManager::running(int *error) {
    if (manager) return manager.get();
    auto made = std::make_unique<CameraManager>();
    int result = made->start();
    if (result < 0) {
        if (error != nullptr) *error = -result;
        return nullptr;
    }
    if (version.empty()) version = made->version();
    // Connected after the start, so only cameras plugged in later are announced (libcamera
    // guards its connections with a lock of its own: its thread may be emitting already).
    made->cameraRemoved.connect(this, &OCLcManager::cameraRemoved);
    made->cameraAdded.connect(this, &OCLcManager::cameraAdded);
    manager = std::move(made);
    return manager.get();
}

extern "C" OCLcManager *oc_lc_manager_create(OCLcRemovedCallback removed, OCLcAddedCallback added, void *context, int *error) {
    auto made = std::make_unique<OCLcManager>();
    made->removed = removed;
    made->added = added;
    made->context = context;
    {
        std::lock_guard<std::recursive_mutex> guard(made->managerLock);
        if (made->running(error) == nullptr) return nullptr;
    }
    OCLcManager *manager = made.release();
    manager->watch = std::thread([manager] { manager->watchLoop(); });
    return manager;
}

extern "C" int oc_lc_manager_keeps_running(OCLcManager *) { return OC_LC_MANAGER_KEEPS_RUNNING ? 1 : 0; }

extern "C" void oc_lc_manager_idle(OCLcManager *manager) {
    if (OC_LC_MANAGER_KEEPS_RUNNING) return;
    std::lock_guard<std::recursive_mutex> guard(manager->managerLock);
    // Destroying the manager stops its thread, which emits the signals: their callbacks
    // must not wait for this lock (the caller's handlers return at once).
    if (manager->users == 0) manager->manager.reset();
}

extern "C" void oc_lc_manager_destroy(OCLcManager *manager) {
    if (manager == nullptr) return;
    manager->quitting = true;
    manager->watch.join();
    manager->manager.reset();
    delete manager;
}

extern "C" int32_t oc_lc_api_version(void) { return OC_LC_API_VERSION; }

extern "C" const char *oc_lc_version(OCLcManager *manager) { return manager->version.c_str(); }

std::shared_ptr<Camera> oc_lc_camera(OCLcManager *manager, const char *id) {
    CameraManager *running = manager->running();
    return running == nullptr ? nullptr : running->get(id);
}

// A view, not a std::string: string controls (properties::Model) are std::string_view from 0.6.
static void copy_string(char *into, size_t capacity, std::string_view text) {
    snprintf(into, capacity, "%.*s", (int)text.size(), text.data());
}

extern "C" int oc_lc_cameras(OCLcManager *manager, OCLcCameraInfo *infos, int capacity) {
    OCLcManagerUse use(manager);
    CameraManager *running = manager->running();
    if (running == nullptr) return 0;
    std::vector<std::shared_ptr<Camera>> cameras = running->cameras();
    for (size_t i = 0; i < cameras.size() && (int)i < capacity; i++) {
        const ControlList &properties = cameras[i]->properties();
        OCLcCameraInfo &info = infos[i];
        memset(&info, 0, sizeof info);
        copy_string(info.id, sizeof info.id, cameras[i]->id());
        copy_string(info.model, sizeof info.model, properties.get(properties::Model).value_or(""));
        info.location = properties.get(properties::Location).value_or(-1);
        info.rotation = properties.get(properties::Rotation).value_or(-1);
        if (auto areas = properties.get(properties::PixelArrayActiveAreas); areas && !areas->empty()) {
            info.pixelArrayWidth = (int)(*areas)[0].width;
            info.pixelArrayHeight = (int)(*areas)[0].height;
        } else if (auto size = properties.get(properties::PixelArraySize)) {
            info.pixelArrayWidth = (int)size->width;
            info.pixelArrayHeight = (int)size->height;
        }
    }
    return (int)cameras.size();
}

static StreamRole role_of(int role) {
    switch (role) {
    case OC_LC_ROLE_RAW: return StreamRole::Raw;
    case OC_LC_ROLE_STILL: return StreamRole::StillCapture;
    case OC_LC_ROLE_VIDEO: return StreamRole::VideoRecording;
    default: return StreamRole::Viewfinder;
    }
}

std::unique_ptr<CameraConfiguration> oc_lc_generate(Camera &camera, int role) {
    // 0.0.3 takes a std::vector (StreamRoles); later versions a Span, which the vector converts to.
    std::vector<StreamRole> roles{role_of(role)};
    return camera.generateConfiguration(roles);
}

extern "C" int oc_lc_stream_formats(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *formats, int capacity) {
    OCLcManagerUse use(manager);
    std::shared_ptr<Camera> camera = oc_lc_camera(manager, id);
    if (!camera) return -ENODEV;
    std::unique_ptr<CameraConfiguration> configuration = oc_lc_generate(*camera, role);
    if (!configuration || configuration->empty()) return -EINVAL;
    const StreamFormats &offered = configuration->at(0).formats();
    int count = 0;
    for (const PixelFormat &format : offered.pixelformats()) {
        std::vector<Size> sizes = offered.sizes(format);
        if (sizes.empty()) {
            // A continuous range only: its ends.
            SizeRange range = offered.range(format);
            sizes = {range.min, range.max};
        }
        for (const Size &size : sizes) {
            if (count < capacity) {
                formats[count] = OCLcStreamFormat{format.fourcc(), format.modifier(), (int)size.width, (int)size.height};
            }
            count++;
        }
    }
    return count;
}

extern "C" int oc_lc_default_format(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *format) {
    OCLcManagerUse use(manager);
    std::shared_ptr<Camera> camera = oc_lc_camera(manager, id);
    if (!camera) return -ENODEV;
    std::unique_ptr<CameraConfiguration> configuration = oc_lc_generate(*camera, role);
    if (!configuration || configuration->empty()) return -EINVAL;
    const StreamConfiguration &stream = configuration->at(0);
    *format = OCLcStreamFormat{stream.pixelFormat.fourcc(), stream.pixelFormat.modifier(), (int)stream.size.width, (int)stream.size.height};
    return 0;
}

extern "C" int oc_lc_try_format(OCLcManager *manager, const char *id, int role, OCLcStreamFormat *format) {
    OCLcManagerUse use(manager);
    std::shared_ptr<Camera> camera = oc_lc_camera(manager, id);
    if (!camera) return -ENODEV;
    std::unique_ptr<CameraConfiguration> configuration = oc_lc_generate(*camera, role);
    if (!configuration || configuration->empty()) return -EINVAL;
    StreamConfiguration &asked = configuration->at(0);
    asked.pixelFormat = PixelFormat(format->fourcc, format->modifier);
    asked.size = Size((unsigned)format->width, (unsigned)format->height);
    CameraConfiguration::Status status = configuration->validate();
    if (status == CameraConfiguration::Invalid) return -EINVAL;
    const StreamConfiguration &kept = configuration->at(0);
    *format = OCLcStreamFormat{kept.pixelFormat.fourcc(), kept.pixelFormat.modifier(), (int)kept.size.width, (int)kept.size.height};
    return status == CameraConfiguration::Adjusted ? 1 : 0;
}

template <typename T>
static bool limits_of(const ControlInfoMap &map, const ControlId &id, T &minimum, T &maximum) {
    auto found = map.find(&id);
    if (found == map.end()) return false;
    minimum = found->second.min().get<T>();
    maximum = found->second.max().get<T>();
    return true;
}

extern "C" int oc_lc_control_limits(OCLcManager *manager, const char *id, OCLcControlLimits *limits) {
    OCLcManagerUse use(manager);
    std::shared_ptr<Camera> camera = oc_lc_camera(manager, id);
    if (!camera) return -ENODEV;
    const ControlInfoMap &map = camera->controls();
    memset(limits, 0, sizeof *limits);
    OCLcControlLimits &l = *limits;
#if OC_LC_VERSION_AT_LEAST(0, 5)
    if (map.count(&controls::ExposureTimeMode)) l.has |= OC_LC_HAS_AE_ENABLE;
#else
    if (map.count(&controls::AeEnable)) l.has |= OC_LC_HAS_AE_ENABLE;
#endif
    if (limits_of(map, controls::ExposureTime, l.minExposureTime, l.maxExposureTime)) l.has |= OC_LC_HAS_EXPOSURE_TIME;
    if (limits_of(map, controls::AnalogueGain, l.minAnalogueGain, l.maxAnalogueGain)) l.has |= OC_LC_HAS_ANALOGUE_GAIN;
    if (limits_of(map, controls::ExposureValue, l.minExposureValue, l.maxExposureValue)) l.has |= OC_LC_HAS_EXPOSURE_VALUE;
    if (map.count(&controls::AwbEnable)) l.has |= OC_LC_HAS_AWB_ENABLE;
    if (map.count(&controls::ColourGains)) l.has |= OC_LC_HAS_COLOUR_GAINS;
    if (limits_of(map, controls::ColourTemperature, l.minColourTemperature, l.maxColourTemperature)) l.has |= OC_LC_HAS_COLOUR_TEMPERATURE;
    if (map.count(&controls::AfMode)) l.has |= OC_LC_HAS_AF_MODE;
    if (limits_of(map, controls::LensPosition, l.minLensPosition, l.maxLensPosition)) l.has |= OC_LC_HAS_LENS_POSITION;
    if (auto found = map.find(&controls::ScalerCrop); found != map.end()) {
        Rectangle largest = found->second.max().get<Rectangle>();
        l.maxScalerCrop[0] = largest.x;
        l.maxScalerCrop[1] = largest.y;
        l.maxScalerCrop[2] = (int32_t)largest.width;
        l.maxScalerCrop[3] = (int32_t)largest.height;
        l.has |= OC_LC_HAS_SCALER_CROP;
    }
    if (limits_of(map, controls::FrameDurationLimits, l.minFrameDuration, l.maxFrameDuration)) l.has |= OC_LC_HAS_FRAME_DURATION_LIMITS;
    struct {
        const ControlId &id;
        uint32_t bit;
        float *values;
    } floats[] = {
        {controls::Brightness, OC_LC_HAS_BRIGHTNESS, &l.minBrightness},
        {controls::Contrast, OC_LC_HAS_CONTRAST, &l.minContrast},
        {controls::Saturation, OC_LC_HAS_SATURATION, &l.minSaturation},
    };
    for (auto &entry : floats) {
        auto found = map.find(&entry.id);
        if (found == map.end()) continue;
        entry.values[0] = found->second.min().get<float>();
        entry.values[1] = found->second.max().get<float>();
        entry.values[2] = found->second.def().isNone() ? 0 : found->second.def().get<float>();
        l.has |= entry.bit;
    }
    return 0;
}

void oc_lc_fill_controls(const OCLcControls &c, ControlList &list) {
    if (c.set & OC_LC_HAS_AE_ENABLE) {
#if OC_LC_VERSION_AT_LEAST(0, 5)
        list.set(controls::ExposureTimeMode, c.aeEnable ? controls::ExposureTimeModeAuto : controls::ExposureTimeModeManual);
        list.set(controls::AnalogueGainMode, c.aeEnable ? controls::AnalogueGainModeAuto : controls::AnalogueGainModeManual);
#else
        list.set(controls::AeEnable, c.aeEnable != 0);
#endif
    }
    if (c.set & OC_LC_HAS_EXPOSURE_TIME) list.set(controls::ExposureTime, c.exposureTime);
    if (c.set & OC_LC_HAS_ANALOGUE_GAIN) list.set(controls::AnalogueGain, c.analogueGain);
    if (c.set & OC_LC_HAS_EXPOSURE_VALUE) list.set(controls::ExposureValue, c.exposureValue);
    if (c.set & OC_LC_HAS_AWB_ENABLE) list.set(controls::AwbEnable, c.awbEnable != 0);
    if (c.set & OC_LC_HAS_COLOUR_GAINS) list.set(controls::ColourGains, Span<const float, 2>(c.colourGains, 2));
    if (c.set & OC_LC_HAS_COLOUR_TEMPERATURE) list.set(controls::ColourTemperature, c.colourTemperature);
    if (c.set & OC_LC_HAS_AF_MODE) list.set(controls::AfMode, (int32_t)c.afMode);
    if (c.set & OC_LC_HAS_LENS_POSITION) list.set(controls::LensPosition, c.lensPosition);
    if (c.set & OC_LC_HAS_SCALER_CROP) {
        list.set(controls::ScalerCrop, Rectangle(c.scalerCrop[0], c.scalerCrop[1], (unsigned)c.scalerCrop[2], (unsigned)c.scalerCrop[3]));
    }
    if (c.set & OC_LC_HAS_FRAME_DURATION_LIMITS) {
        list.set(controls::FrameDurationLimits, Span<const int64_t, 2>(c.frameDurationLimits, 2));
    }
    if (c.set & OC_LC_HAS_BRIGHTNESS) list.set(controls::Brightness, c.brightness);
    if (c.set & OC_LC_HAS_CONTRAST) list.set(controls::Contrast, c.contrast);
    if (c.set & OC_LC_HAS_SATURATION) list.set(controls::Saturation, c.saturation);
}
