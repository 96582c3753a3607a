import CLibcameraRuntime
import CaptureCore
import V4L2Camera

/// Builds the `DeviceDescriptor` of a libcamera camera: identity from its properties,
/// formats from the viewfinder role, abilities from its controls.
enum LibcameraProfile {
    /// `stills` are the still-capture role's sizes (`LibcameraSystem.stillFormats`): each
    /// format lists those larger than itself as `supportedMaxPhotoDimensions`, taken through
    /// a still-role configuration (`LibcameraCamera+LargerStills.swift`).
    static func descriptor(
        info: LibcameraCameraInfo, formats: [LibcameraFormat], stills: [LibcameraFormat] = [], limits: LibcameraLimits
    ) -> DeviceDescriptor {
        // FrameDurationLimits in µs; a pipeline that gives none (vimc) streams at the rate its
        // driver paces, which nothing tells: 30 fps, libcamera's pipelines' usual default.
        let hasDurations = limits.offers(OC_LC_HAS_FRAME_DURATION_LIMITS) && limits.minFrameDuration > 0
        let fastest = hasDurations ? 1_000_000 / Double(limits.minFrameDuration) : 30
        let slowest = hasDurations && limits.maxFrameDuration > 0 ? 1_000_000 / Double(limits.maxFrameDuration) : min(1, fastest)
        let (minISO, maxISO) = limits.isoRange
        let exposure: (Double, Double) =
            limits.offers(OC_LC_HAS_EXPOSURE_TIME)
            ? (Double(max(limits.minExposureTime, 1)) / 1_000_000, Double(limits.maxExposureTime) / 1_000_000)
            : (1 / fastest, 1 / slowest)
        let specs = formats.map { format in
            // Zoom crops the sensor area down to the output size at most.
            let maxZoom = limits.offers(OC_LC_HAS_SCALER_CROP) ? max(1, Double(limits.maxScalerCrop.2) / Double(format.width)) : 1
            var spec = DeviceFormatSpec(
                width: format.width, height: format.height, pixelFormat: format.code.sameLayout ?? .yuv420BiPlanarVideoRange,
                frameRateRanges: [slowest...fastest], minISO: minISO, maxISO: maxISO, minExposureDuration: exposure.0,
                maxExposureDuration: exposure.1, fieldOfView: 0, maxZoomFactor: maxZoom, maxPhotoWidth: format.streamed.width,
                maxPhotoHeight: format.streamed.height, mediaSubType: format.code.mediaSubType)
            spec.autoFocusSystem = limits.offers(OC_LC_HAS_AF_MODE) ? 1 : 0
            spec.largerPhotoSizes = largerPhotoSizes(than: format, in: stills)
            return spec
        }
        let presets = presetFormats(formats)
        // properties::Location: front and back cameras are built in; external or unsaid ones are not.
        let position = info.location == 0 ? 2 : info.location == 1 ? 1 : 0
        let name = info.model.isEmpty ? info.id : info.model
        var descriptor = DeviceDescriptor(
            uniqueID: "libcamera:\(info.id)", modelID: name, localizedName: name, manufacturer: "libcamera", position: position,
            deviceType: position == 0 ? "AVCaptureDeviceTypeExternal" : "AVCaptureDeviceTypeBuiltInWideAngleCamera",
            formats: specs, presetFormats: presets, defaultFormatIndex: presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: 0)
        descriptor.supportsExposureControl = limits.supportsExposureControl
        descriptor.focus = FocusCapabilities(hasAutoFocus: limits.offers(OC_LC_HAS_AF_MODE) && limits.offers(OC_LC_HAS_LENS_POSITION))
        descriptor.hasTorch = false
        descriptor.supportsAutoTorch = false
        return descriptor
    }

    /// The still sizes holding `format` in both directions and larger in area, smallest first.
    static func largerPhotoSizes(than format: LibcameraFormat, in stills: [LibcameraFormat]) -> [PhotoSize] {
        var sizes: [PhotoSize] = []
        for still in stills where still.width >= format.width && still.height >= format.height
            && still.width * still.height > format.width * format.height
        {
            let size = PhotoSize(width: still.width, height: still.height)
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes.sorted { ($0.width * $0.height, $0.width) < ($1.width * $1.height, $1.width) }
    }

    /// Session presets: the sized presets where the camera has that exact size, High 1920x1080 or the largest below it, Medium the size nearest
    /// 480x360, Low the smallest, Photo the largest. `formats` is sorted smallest first.
    static func presetFormats(_ formats: [LibcameraFormat]) -> [String: Int] {
        guard !formats.isEmpty else { return [:] }
        var map: [String: Int] = [:]
        let sized: [(String, Int, Int)] = [
            ("AVCaptureSessionPreset352x288", 352, 288), ("AVCaptureSessionPreset640x480", 640, 480),
            ("AVCaptureSessionPreset1280x720", 1280, 720), ("AVCaptureSessionPreset1920x1080", 1920, 1080),
            ("AVCaptureSessionPreset3840x2160", 3840, 2160), ("AVCaptureSessionPresetiFrame960x540", 960, 540),
            ("AVCaptureSessionPresetiFrame1280x720", 1280, 720),
        ]
        for (preset, width, height) in sized {
            map[preset] = formats.firstIndex { $0.width == width && $0.height == height }
        }
        let area = { (index: Int) in formats[index].width * formats[index].height }
        map["AVCaptureSessionPresetLow"] = 0
        map["AVCaptureSessionPresetPhoto"] = formats.count - 1
        map["AVCaptureSessionPresetHigh"] = formats.indices.last { area($0) <= 1920 * 1080 } ?? 0
        map["AVCaptureSessionPresetMedium"] = formats.indices.min { abs(area($0) - 480 * 360) < abs(area($1) - 480 * 360) }
        return map
    }
}
