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
        if let text = args.value("--exposure-mode") {
            switch text.lowercased() {
            case "locked": mode = .locked
            case "auto": mode = .autoExpose
            case "continuous": mode = .continuousAutoExposure
            case "custom": mode = .custom
            default: throw UsageError("unknown exposure mode '\(text)' (exposure modes: locked, auto, continuous, custom)")
            }
        }
        if let text = args.value("--shutter") {
            let seconds = try Self.seconds(text)
            let range = format.minExposureDuration.seconds...format.maxExposureDuration.seconds
            guard range.contains(seconds) else {
                throw UsageError(String(format: "--shutter %@ is outside the format's exposure range %.6f...%.3f s", text, range.lowerBound, range.upperBound))
            }
            duration = CMTime(seconds: seconds, preferredTimescale: 1_000_000_000)
        }
        if let text = args.value("--iso") {
            guard let value = Float(text), value.isFinite else { throw UsageError("--iso must be a number, not '\(text)'") }
            guard value >= format.minISO, value <= format.maxISO else {
                throw UsageError("--iso \(text) is outside the format's ISO range \(Int(format.minISO))...\(Int(format.maxISO))")
            }
            iso = value
        }
        if let text = args.value("--bias") {
            guard let value = Float(text), value.isFinite else { throw UsageError("--bias must be a number of EV, not '\(text)'") }
            guard value >= device.minExposureTargetBias, value <= device.maxExposureTargetBias else {
                throw UsageError("--bias must lie in \(Int(device.minExposureTargetBias))...\(Int(device.maxExposureTargetBias)) EV, got \(text)")
            }
            bias = value
        }
        if (duration != nil || iso != nil), mode == nil { mode = .custom }
        if let mode, mode != .custom, duration != nil || iso != nil {
            throw UsageError("--shutter and --iso need --exposure-mode custom")
        }
    }

    var isEmpty: Bool { mode == nil && bias == nil }

    /// "1/250", "0.004" or "4ms" as seconds.
    static func seconds(_ text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var value: Double?
        if trimmed.hasPrefix("1/"), let denominator = Double(trimmed.dropFirst(2)), denominator > 0 {
            value = 1 / denominator
        } else if trimmed.hasSuffix("ms"), let milliseconds = Double(trimmed.dropLast(2)) {
            value = milliseconds / 1000
        } else {
            value = Double(trimmed)
        }
        guard let value, value.isFinite, value > 0 else {
            throw UsageError("--shutter takes seconds (0.004), a fraction (1/250) or milliseconds (4ms), not '\(text)'")
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
