import CV4L2
import CaptureCore
import Foundation

/// Builds the `DeviceDescriptor` of a V4L2 device: identity, formats, presets.
package enum V4L2DeviceProfile {
    /// Apple's device type string for cameras that are not built in.
    static let externalType = "AVCaptureDeviceTypeExternal"

    package static func descriptor(
        capability: V4L2Capability, modes: [V4L2Mode], controls: [V4L2ControlInfo], current: (UInt32, Int, Int)?, path: String
    ) -> DeviceDescriptor {
        let exposure = controls.first { $0.id == V4L2ControlID.exposureTimeAbsolute }
        // iso_sensitivity lists ISO × 1000 (kernel documentation); without it the gain control
        // stands for ISO (default gain = ISO 100), and without that ISO is fixed at 100.
        let isoValues = controls.first { $0.id == V4L2ControlID.isoSensitivity }?.menu.compactMap { Float($0.name) }.map { $0 / 1000 } ?? []
        var (minISO, maxISO) = (isoValues.min() ?? 100, isoValues.max() ?? 100)
        if isoValues.isEmpty, let gain = controls.first(where: { $0.id == V4L2ControlID.gain && $0.defaultValue > 0 }) {
            // Gain as ISO, as stills report it (V4L2StillExposure): 100 × gain / default.
            minISO = max(1, Float(100 * gain.minimum) / Float(gain.defaultValue))
            maxISO = Float(100 * gain.maximum) / Float(gain.defaultValue)
        }
        let zoom = controls.first { $0.id == V4L2ControlID.zoomAbsolute }
        let maxZoom = zoom.map { V4L2LensApplier.zoomFactor($0.maximum, range: $0.minimum...$0.maximum) } ?? 1
        let autoFocus = controls.contains { $0.id == V4L2ControlID.focusAutomaticContinuous }
            && controls.contains { $0.id == V4L2ControlID.focusAbsolute }
        let formats = modes.map { mode in
            var spec = DeviceFormatSpec(
                width: mode.width, height: mode.height, pixelFormat: mode.code.sameLayout ?? .yuv420BiPlanarVideoRange,
                frameRateRanges: mode.frameRateRanges, minISO: minISO, maxISO: maxISO,
                minExposureDuration: exposure.map { Double(max($0.minimum, 1)) / 10_000 } ?? (1.0 / (mode.frameRateRanges.first?.upperBound ?? 30)),
                maxExposureDuration: exposure.map { Double($0.maximum) / 10_000 } ?? (1.0 / (mode.frameRateRanges.last?.lowerBound ?? 30)),
                fieldOfView: 0, maxZoomFactor: maxZoom, mediaSubType: mode.code.mediaSubType)
            spec.autoFocusSystem = autoFocus ? 1 : 0
            spec.largerPhotoSizes = largerPhotoSizes(than: mode, in: modes)
            return spec
        }
        let presets = presetFormats(modes)
        let currentIndex = current.flatMap { code, width, height in
            modes.firstIndex { $0.code.rawValue == code && $0.width == width && $0.height == height }
        }
        var descriptor = DeviceDescriptor(
            uniqueID: uniqueID(capability: capability, path: path), modelID: "\(capability.driver) \(capability.card)",
            localizedName: capability.card, manufacturer: capability.driver, position: 0, deviceType: externalType,
            formats: formats, presetFormats: presets,
            defaultFormatIndex: currentIndex ?? presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: 0)
        let has = { (id: UInt32) in controls.contains { $0.id == id } }
        descriptor.focus = FocusCapabilities(hasAutoFocus: autoFocus)
        descriptor.hasTorch = controls.first { $0.id == V4L2ControlID.flashLEDMode }?.menu.contains { $0.index == 2 } ?? false
        descriptor.supportsAutoTorch = false
        descriptor.supportsExposureControl = has(V4L2ControlID.autoExposure) && exposure != nil
        // White balance needs the automatic switch and a manual control to lock with.
        if has(V4L2ControlID.autoWhiteBalance)
            && (has(V4L2ControlID.whiteBalanceTemperature) || (has(V4L2ControlID.redBalance) && has(V4L2ControlID.blueBalance)))
        {
            descriptor.colorCalibration = V4L2WhiteBalanceModel.calibration
        }
        return descriptor
    }

    /// The device's frame sizes holding `mode`'s in both directions, smallest first, once
    /// each: a still at one of them switches the device to that size for one frame
    /// (`V4L2Camera+LargerStills.swift`), as UVC webcams offer 5 MP stills beside 1080p video.
    static func largerPhotoSizes(than mode: V4L2Mode, in modes: [V4L2Mode]) -> [PhotoSize] {
        var sizes: [PhotoSize] = []
        for other in modes where other.width >= mode.width && other.height >= mode.height
            && other.width * other.height > mode.width * mode.height
        {
            let size = PhotoSize(width: other.width, height: other.height)
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes.sorted { ($0.width * $0.height, $0.width) < ($1.width * $1.height, $1.width) }
    }

    /// Stable across re-plugging: the udev by-id name when there is one (it holds the
    /// serial number), else the bus position the driver reports. A media-controller node
    /// shares its bus position with the other nodes of its pipeline (vimc's three capture
    /// nodes are all "platform:vimc"), so its video device name follows (sysfs `name`, e.g.
    /// "v4l2:platform:vimc:Raw Capture 0"), or the node's name when sysfs has none.
    static func uniqueID(capability: V4L2Capability, path: String, sysfs: String = "/sys") -> String {
        let byID = "/dev/v4l/by-id"
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let names = try? FileManager.default.contentsOfDirectory(atPath: byID) {
            for name in names.sorted()
            where URL(fileURLWithPath: "\(byID)/\(name)").resolvingSymlinksInPath().path == resolved {
                return "v4l2:\(name)"
            }
        }
        guard capability.isMediaControllerCentric else { return "v4l2:\(capability.busInfo)" }
        let node = URL(fileURLWithPath: resolved).lastPathComponent
        let name = (try? String(contentsOfFile: "\(sysfs)/class/video4linux/\(node)/name", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return "v4l2:\(capability.busInfo):\(name.isEmpty ? node : name)"
    }

    /// The format the driver has now (G_FMT), as (FourCC, width, height).
    package static func currentMode(of node: V4L2Node) -> (UInt32, Int, Int)? {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard (try? node.control(OC_VIDIOC_G_FMT, "VIDIOC_G_FMT", &format)) != nil else { return nil }
        return (format.fmt.pix.pixelformat, Int(format.fmt.pix.width), Int(format.fmt.pix.height))
    }

    /// Session presets the device can serve: exact sizes for the sized presets; High the
    /// largest size that still reaches 25 fps, Medium the size nearest 480x360, Low the
    /// smallest, Photo the largest. Among formats of one size, the cheapest to deliver.
    static func presetFormats(_ modes: [V4L2Mode]) -> [String: Int] {
        guard !modes.isEmpty else { return [:] }
        func best(_ candidates: [Int]) -> Int? {
            candidates.min { modes[$0].code.preference < modes[$1].code.preference }
        }
        func area(_ index: Int) -> Int { modes[index].width * modes[index].height }
        var map: [String: Int] = [:]
        let sized: [(String, Int, Int)] = [
            ("AVCaptureSessionPreset352x288", 352, 288), ("AVCaptureSessionPreset640x480", 640, 480),
            ("AVCaptureSessionPreset1280x720", 1280, 720), ("AVCaptureSessionPreset1920x1080", 1920, 1080),
            ("AVCaptureSessionPreset3840x2160", 3840, 2160), ("AVCaptureSessionPresetiFrame960x540", 960, 540),
            ("AVCaptureSessionPresetiFrame1280x720", 1280, 720),
        ]
        for (preset, width, height) in sized {
            map[preset] = best(modes.indices.filter { modes[$0].width == width && modes[$0].height == height })
        }
        let indices = Array(modes.indices)
        let largest = indices.map(area).max()!
        let smallest = indices.map(area).min()!
        map["AVCaptureSessionPresetPhoto"] = best(indices.filter { area($0) == largest })
        map["AVCaptureSessionPresetLow"] = best(indices.filter { area($0) == smallest })
        let fluent = indices.filter { (modes[$0].frameRateRanges.map(\.upperBound).max() ?? 0) >= 25 }
        let highArea = (fluent.isEmpty ? indices : fluent).map(area).max()!
        map["AVCaptureSessionPresetHigh"] = best((fluent.isEmpty ? indices : fluent).filter { area($0) == highArea })
        let target = 480 * 360
        let mediumArea = indices.map(area).min { abs($0 - target) < abs($1 - target) }!
        map["AVCaptureSessionPresetMedium"] = best(indices.filter { area($0) == mediumArea })
        return map
    }
}
