import Foundation
import OpenCapture

/// `capture formats [DEVICE] [--json]`.
enum FormatsCommand {
    static let spec = CommandSpec(
        name: "formats", summary: "List a camera's formats, frame rates, ISO and exposure ranges",
        description: """
            Lists the formats of a camera (default: the default camera): size, pixel format,
            frame-rate ranges, ISO and exposure ranges, field of view, zoom, binning, HDR, and
            the session presets each format serves. DEVICE is a unique ID, as --device takes.
            """,
        options: [
            .value("--device", "ID", help: "Camera unique ID, instead of DEVICE", validate: DeviceLookup.checkID),
            .flag("--json", help: "Print a JSON array instead of a table"),
        ],
        positional: .init(name: "DEVICE", option: "--device"), run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let device = try DeviceLookup.device(args.value("--device"))
        let presets = AVCaptureSession.Preset.allPresets.filter { $0 != .inputPriority }
        func presetNames(_ format: AVCaptureDevice.Format) -> [String] {
            presets.filter { device.formatIndex(for: $0) == format.index }.map { PresetNames.shortName($0) }
        }
        if args.has("--json") {
            let list: [[String: Any]] = device.formats.map { format in
                let dims = format.formatDescription.dimensions
                return [
                    "index": format.index, "width": Int(dims.width), "height": Int(dims.height),
                    "pixelFormat": fourCCString(format.formatDescription.mediaSubType.rawValue),
                    "frameRateRanges": format.videoSupportedFrameRateRanges.map { ["min": $0.minFrameRate, "max": $0.maxFrameRate] },
                    "minISO": Double(format.minISO), "maxISO": Double(format.maxISO),
                    "minExposureDuration": format.minExposureDuration.seconds, "maxExposureDuration": format.maxExposureDuration.seconds,
                    "fieldOfView": Double(format.videoFieldOfView), "maxZoomFactor": Double(format.videoMaxZoomFactor),
                    "binned": format.isVideoBinned, "hdr": format.isVideoHDRSupported,
                    "colorSpaces": format.supportedColorSpaces.map { $0 == .sRGB ? "sRGB" : $0 == .P3_D65 ? "P3_D65" : "HLG_BT2020" },
                    "presets": presetNames(format), "active": format == device.activeFormat,
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return 0
        }
        // Real cameras do not report their aperture or field of view: "-" rather than 0.
        let aperture = device.lensAperture > 0 ? "f/" + String(format: "%.1f", device.lensAperture) : "aperture unknown"
        print("\(device.localizedName) [\(device.uniqueID)], \(aperture)")
        print(" #  SIZE        PIX   FPS        ISO         EXPOSURE (s)        FOV     ZOOM  BIN HDR  PRESETS")
        for format in device.formats {
            let dims = format.formatDescription.dimensions
            let fps = format.videoSupportedFrameRateRanges.map { range in
                range.minFrameRate == range.maxFrameRate
                    ? rate(range.maxFrameRate) : "\(rate(range.minFrameRate))-\(rate(range.maxFrameRate))"
            }.joined(separator: ",")
            let iso = "\(Int(format.minISO))-\(Int(format.maxISO))"
            let exposure = String(format: "%.6f-%.3f", format.minExposureDuration.seconds, format.maxExposureDuration.seconds)
            let line = [
                pad(String(format: "%2d", format.index), 2), pad("\(dims.width)x\(dims.height)", 10),
                pad(fourCCString(format.formatDescription.mediaSubType.rawValue), 4), pad(fps, 9), pad(iso, 10),
                pad(exposure, 18), pad(format.videoFieldOfView > 0 ? String(format: "%.1f°", format.videoFieldOfView) : "-", 6),
                pad(String(format: "%.0f", Double(format.videoMaxZoomFactor)), 4), pad(format.isVideoBinned ? "yes" : "no", 3),
                pad(format.isVideoHDRSupported ? "yes" : "no", 3), presetNames(format).joined(separator: ","),
            ]
            print(" " + line.joined(separator: "  "))
        }
        return 0
    }

    /// 30 as "30", 12.5 as "12.5".
    static func rate(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}
