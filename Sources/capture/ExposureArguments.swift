import Foundation
import OpenCapture

/// What `--exposure-mode`, `--shutter`, `--iso` and `--bias` ask for, validated against the
/// device's active format before the camera starts.
struct ExposureChoice {
    var mode: AVCaptureDevice.ExposureMode?
    var duration: CMTime?
    var iso: Float?
    var bias: Float?

    init(_ args: Arguments, device: AVCaptureDevice, format: AVCaptureDevice.Format) throws {
        let given = ["--exposure-mode", "--shutter", "--iso", "--bias"].filter { args.value($0) != nil }
        if let first = given.first, !device.isExposureModeSupported(.continuousAutoExposure) {
            throw UsageError("\(device.localizedName) has no exposure control; \(first) does not apply to it")
        }
        switch args.value("--exposure-mode")?.lowercased() {
        case "locked": mode = .locked
        case "auto": mode = .autoExpose
        case "continuous": mode = .continuousAutoExposure
        case "custom": mode = .custom
        default: break  // absent: the option's check allows nothing else
        }
        if let text = args.value("--shutter") {
            let seconds = try Self.seconds(text)
            let range = format.minExposureDuration.seconds...format.maxExposureDuration.seconds
            guard range.contains(seconds) else {
                throw UsageError(String(format: "--shutter %@ is outside the format's exposure range %.6f...%.3f s", text, range.lowerBound, range.upperBound))
            }
            duration = CMTime(seconds: seconds, preferredTimescale: 1_000_000_000)
        }
        if let text = args.value("--iso"), let value = args.decimal("--iso") {
            guard Float(value) >= format.minISO, Float(value) <= format.maxISO else {
                throw UsageError("--iso \(text) is outside the format's ISO range \(Int(format.minISO))...\(Int(format.maxISO))")
            }
            iso = Float(value)
        }
        if let text = args.value("--bias"), let value = args.decimal("--bias") {
            guard Float(value) >= device.minExposureTargetBias, Float(value) <= device.maxExposureTargetBias else {
                throw UsageError("--bias must lie in \(Int(device.minExposureTargetBias))...\(Int(device.maxExposureTargetBias)) EV, got \(text)")
            }
            bias = Float(value)
        }
        if (duration != nil || iso != nil), mode == nil { mode = .custom }
        if let mode, mode != .custom, duration != nil || iso != nil {
            throw UsageError("--shutter and --iso need --exposure-mode custom")
        }
    }

    var isEmpty: Bool { mode == nil && bias == nil }

    /// The longest `--shutter` accepted before the format's own range is looked at.
    static let longestShutter = 3600.0

    /// "1/250", "0.004" or "4ms" as seconds, in (0, 3600].
    static func seconds(_ text: String) throws -> Double {
        let value: Double?
        if text.hasPrefix("1/") {
            value = StrictNumber.decimal(String(text.dropFirst(2)), in: 0...Double.greatestFiniteMagnitude, excludingLowerBound: true).map { 1 / $0 }
        } else if text.hasSuffix("ms") {
            value = StrictNumber.decimal(String(text.dropLast(2))).map { $0 / 1000 }
        } else {
            value = StrictNumber.decimal(text)
        }
        guard let value, value > 0, value <= longestShutter else {
            throw UsageError.value("--shutter", text, allowed: "seconds (0.004), a fraction (1/250) or milliseconds (4ms), at most 3600 s")
        }
        return value
    }

    /// Applies the choice; the device must be locked for configuration.
    func apply(to device: AVCaptureDevice) throws {
        if let bias { try device.setExposureTargetBiasChecked(bias) }
        guard let mode else { return }
        if mode == .custom {
            try device.setExposureModeCustomChecked(duration: duration ?? AVCaptureDevice.currentExposureDuration, iso: iso ?? AVCaptureDevice.currentISO)
        } else {
            try device.setExposureMode(mode)
        }
    }
}
