import Foundation
import OpenCapture

/// What `POST /control` does: a JSON object of settings, checked in full against the
/// device's ranges first (any unknown name or bad value refuses the whole request and
/// changes nothing), then applied under the device's configuration lock through
/// AVFoundation's own calls, in their checked (throwing) forms.
///
/// Names: `exposureMode`, `iso`, `exposureDuration` (seconds; with `iso`, custom exposure),
/// `exposureTargetBias`, `whiteBalanceMode`, `temperature` and `tint` (locks white balance
/// at those gains), `focusMode`, `lensPosition`, `pointOfInterest` (`[x, y]` in device
/// coordinates: focus and expose there once, as a tap does in Apple's AVCam), `tap` (the
/// same with `[x, y]` in 0...1 of the picture as served, rotated and mirrored as the
/// server's connection delivers it; converted as AVCaptureOutput's
/// `metadataOutputRectConverted(fromOutputRect:)` does),
/// `videoZoomFactor`, `torchMode`, `torchLevel`, `activeFormat` (an index into the
/// device's `formats`, as `/status` lists them), `frameRate` (frames per second, within the
/// active format's ranges: sets both frame durations), `videoHDREnabled` (turns automatic
/// HDR off), `colorSpace` (`sRGB`, `P3_D65`, `HLG_BT2020`, `appleLog`, as the format
/// supports), and for a file deck `transportMode` ("playing" or "notPlaying") and
/// `transportSpeed` (0, or 0.25...8 either way). Two session-level settings are taken
/// alone (see `SessionSettings`): `device` and `sessionPreset`.
enum CameraControls {
    static let names = [
        "exposureMode", "iso", "exposureDuration", "exposureTargetBias", "whiteBalanceMode", "temperature", "tint", "focusMode",
        "lensPosition", "pointOfInterest", "tap", "videoZoomFactor", "torchMode", "torchLevel", "activeFormat", "frameRate",
        "videoHDREnabled", "colorSpace", "transportMode", "transportSpeed",
    ] + SessionSettings.names

    /// A refusal: what was wrong, for the JSON reason.
    struct Refusal: Error {
        let reason: String
    }

    /// Applies `body` to `device`, or throws a `Refusal` having changed nothing.
    /// `devicePoint` converts a point in 0...1 of the served picture to device coordinates.
    /// `choosingColorSpace` runs just before a `colorSpace` is set (the server turns off the
    /// session's automatic wide-colour choice there, which would undo it).
    static func apply(
        _ body: Data, to device: AVCaptureDevice, devicePoint: (CGPoint) -> CGPoint, choosingColorSpace: @escaping () -> Void = {}
    ) throws(Refusal) {
        guard let settings = JSONValue.object(in: body) else {
            throw Refusal(reason: "the body must be a JSON object of settings, e.g. {\"iso\": 400}")
        }
        if let unknown = settings.keys.sorted().first(where: { !names.contains($0) }) {
            throw Refusal(reason: "unknown control '\(unknown)'; known: \(names.joined(separator: ", "))")
        }
        if let session = settings.keys.sorted().first(where: SessionSettings.names.contains) {
            throw Refusal(reason: "\(session) is a session setting: give it alone")
        }
        if settings["tap"] != nil && settings["pointOfInterest"] != nil {
            throw Refusal(reason: "give tap or pointOfInterest, not both")
        }
        let changes = try plan(settings, device: device, devicePoint: devicePoint, choosingColorSpace: choosingColorSpace)
        do {
            try device.lockForConfiguration()
        } catch {
            throw Refusal(reason: "the camera cannot be configured now: \(error)")
        }
        defer { device.unlockForConfiguration() }
        for change in changes {
            do {
                try change()
            } catch let exception as AVCaptureException {
                throw Refusal(reason: exception.reason)
            } catch {
                throw Refusal(reason: "\(error)")
            }
        }
    }

    private typealias Change = () throws -> Void

    /// Every setting checked, turned into the calls that make it.
    private static func plan(
        _ settings: [String: JSONValue], device: AVCaptureDevice, devicePoint: (CGPoint) -> CGPoint,
        choosingColorSpace: @escaping () -> Void
    ) throws(Refusal) -> [Change] {
        var changes: [Change] = []
        var format = device.activeFormat
        if let index = try number(settings, "activeFormat", in: 0...Double(max(device.formats.count - 1, 0))) {
            guard index == index.rounded() else {
                throw Refusal(reason: "activeFormat must be a whole index into the camera's formats, 0...\(device.formats.count - 1)")
            }
            let chosen = device.formats[Int(index)]
            format = chosen
            changes.append { try device.setActiveFormat(chosen) }
        }
        if let rate = try number(settings, "frameRate", in: 0.01...10_000) {
            let ranges = format.videoSupportedFrameRateRanges
            guard ranges.contains(where: { $0.minFrameRate - 1e-6 <= rate && rate <= $0.maxFrameRate + 1e-6 }) else {
                let listed = ranges.map { $0.minFrameRate == $0.maxFrameRate ? "\($0.maxFrameRate)" : "\($0.minFrameRate)...\($0.maxFrameRate)" }
                throw Refusal(reason: "frameRate must be in the format's ranges (\(listed.joined(separator: ", ")) fps), not \(rate)")
            }
            // The range's own duration for its end points, so a 29.97 fps range is met exactly.
            let exact = ranges.first { abs($0.maxFrameRate - rate) < 1e-3 }?.minFrameDuration
                ?? ranges.first { abs($0.minFrameRate - rate) < 1e-3 }?.maxFrameDuration
            let duration = exact ?? CMTime(value: 1_000_000, timescale: CMTimeScale((rate * 1_000_000).rounded()))
            changes.append {
                try device.setActiveVideoMinFrameDuration(duration)
                try device.setActiveVideoMaxFrameDuration(duration)
            }
        }
        if let value = settings["videoHDREnabled"] {
            guard let enabled = value.bool else { throw Refusal(reason: "videoHDREnabled must be true or false") }
            guard format.isVideoHDRSupported || !enabled else { throw Refusal(reason: "this format has no video HDR") }
            changes.append {
                try device.setAutomaticallyAdjustsVideoHDREnabled(false)
                try device.setVideoHDREnabled(enabled)
            }
        }
        if let name = try string(settings, "colorSpace", ColorSpaceName.allNames) {
            guard let space = ColorSpaceName.mode(name) else { throw Refusal(reason: "colorSpace must be \(ColorSpaceName.allNames), not '\(name)'") }
            guard format.supportedColorSpaces.contains(space) else {
                throw Refusal(reason: "this format captures in \(format.supportedColorSpaces.map(ColorSpaceName.name).joined(separator: ", ")), not \(name)")
            }
            changes.append {
                choosingColorSpace()
                try device.setActiveColorSpace(space)
            }
        }
        let exposureModes = "locked, autoExpose or continuousAutoExposure (custom: give iso and/or exposureDuration)"
        if let name = try string(settings, "exposureMode", exposureModes) {
            guard let mode = ExposureModeName.mode(name), mode != .custom else {
                throw Refusal(reason: "exposureMode must be \(exposureModes), not '\(name)'")
            }
            guard device.isExposureModeSupported(mode) else { throw Refusal(reason: "this camera does not support exposureMode \(name)") }
            changes.append { try device.setExposureMode(mode) }
        }
        let iso = try number(settings, "iso", in: Double(format.minISO)...Double(format.maxISO))
        let duration = try number(
            settings, "exposureDuration", in: format.minExposureDuration.seconds...format.maxExposureDuration.seconds)
        if iso != nil || duration != nil {
            guard device.isExposureModeSupported(.custom) else { throw Refusal(reason: "this camera has no manual exposure") }
            let time = duration.map { CMTime(seconds: $0, preferredTimescale: 1_000_000_000) } ?? AVCaptureDevice.currentExposureDuration
            let gain = iso.map { Float($0) } ?? AVCaptureDevice.currentISO
            changes.append { try device.setExposureModeCustomChecked(duration: time, iso: gain) }
        }
        if let bias = try number(settings, "exposureTargetBias", in: Double(device.minExposureTargetBias)...Double(device.maxExposureTargetBias)) {
            changes.append { try device.setExposureTargetBiasChecked(Float(bias)) }
        }
        if let name = try string(settings, "whiteBalanceMode", WhiteBalanceModeName.allNames) {
            guard let mode = WhiteBalanceModeName.mode(name) else {
                throw Refusal(reason: "whiteBalanceMode must be \(WhiteBalanceModeName.allNames), not '\(name)'")
            }
            guard device.isWhiteBalanceModeSupported(mode) else { throw Refusal(reason: "this camera does not support whiteBalanceMode \(name)") }
            changes.append { try device.setWhiteBalanceMode(mode) }
        }
        let temperature = try number(settings, "temperature", in: 1000...40000)
        let tint = try number(settings, "tint", in: -150...150)
        if temperature != nil || tint != nil {
            guard device.isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
                throw Refusal(reason: "this camera cannot lock white balance at chosen gains")
            }
            let current = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
            let values = AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(
                temperature: Float(temperature ?? Double(current.temperature)), tint: Float(tint ?? Double(current.tint)))
            // As Apple's samples do: gains a temperature asks for beyond the device's range
            // are brought into it, since the device refuses them otherwise.
            var gains = device.deviceWhiteBalanceGains(for: values)
            let top = device.maxWhiteBalanceGain
            gains.redGain = min(max(gains.redGain, 1), top)
            gains.greenGain = min(max(gains.greenGain, 1), top)
            gains.blueGain = min(max(gains.blueGain, 1), top)
            let locked = gains
            changes.append { try device.setWhiteBalanceModeLockedChecked(with: locked) }
        }
        if let name = try string(settings, "focusMode", FocusModeName.allNames) {
            guard let mode = FocusModeName.mode(name) else { throw Refusal(reason: "focusMode must be \(FocusModeName.allNames), not '\(name)'") }
            guard device.isFocusModeSupported(mode) else { throw Refusal(reason: "this camera does not support focusMode \(name)") }
            changes.append { try device.setFocusMode(mode) }
        }
        if let position = try number(settings, "lensPosition", in: 0...1) {
            guard device.isLockingFocusWithCustomLensPositionSupported else { throw Refusal(reason: "this camera has a fixed lens position") }
            changes.append { try device.setFocusModeLockedChecked(lensPosition: Float(position)) }
        }
        for name in ["pointOfInterest", "tap"] where settings[name] != nil {
            guard case .array(let pair)? = settings[name], pair.count == 2, let x = pair[0].number, let y = pair[1].number,
                (0...1).contains(x), (0...1).contains(y)
            else { throw Refusal(reason: "\(name) must be [x, y] with each a number in 0...1") }
            let given = CGPoint(x: x, y: y)
            let converted = name == "tap" ? devicePoint(given) : given
            let point = CGPoint(x: min(max(converted.x, 0), 1), y: min(max(converted.y, 0), 1))
            if device.isFocusPointOfInterestSupported && device.isFocusModeSupported(.autoFocus) {
                changes.append {
                    try device.setFocusPointOfInterest(point)
                    try device.setFocusMode(.autoFocus)
                }
            }
            if device.isExposurePointOfInterestSupported && device.isExposureModeSupported(.autoExpose) {
                changes.append {
                    try device.setExposurePointOfInterest(point)
                    try device.setExposureMode(.autoExpose)
                }
            }
        }
        if let factor = try number(
            settings, "videoZoomFactor", in: Double(device.minAvailableVideoZoomFactor)...Double(device.maxAvailableVideoZoomFactor))
        {
            changes.append { try device.setVideoZoomFactor(CGFloat(factor)) }
        }
        if let name = try string(settings, "torchMode", TorchModeName.allNames) {
            guard let mode = TorchModeName.mode(name) else { throw Refusal(reason: "torchMode must be \(TorchModeName.allNames), not '\(name)'") }
            guard device.hasTorch && device.isTorchModeSupported(mode) else { throw Refusal(reason: "this camera has no torch mode \(name)") }
            changes.append { try device.setTorchMode(mode) }
        }
        if let level = try number(settings, "torchLevel", in: 0.001...1) {
            guard device.hasTorch else { throw Refusal(reason: "this camera has no torch") }
            changes.append { _ = try device.setTorchModeOnChecked(level: Float(level)) }
        }
        let mode = try string(settings, "transportMode", "playing or notPlaying")
        let speed = try number(settings, "transportSpeed", in: -8...8)
        if mode != nil || speed != nil {
            guard device.transportControlsSupported else { throw Refusal(reason: "this camera has no transport controls") }
            let playing: AVCaptureDevice.TransportControlsPlaybackMode
            switch mode {
            case "playing": playing = .playing
            case "notPlaying": playing = .notPlaying
            case nil: playing = device.transportControlsPlaybackMode
            default: throw Refusal(reason: "transportMode must be playing or notPlaying, not '\(mode!)'")
            }
            let value = speed.map { Float($0) } ?? device.transportControlsSpeed
            guard value == 0 || AVCaptureDevice.Deck.speedMagnitudes.contains(abs(value)) else {
                throw Refusal(reason: "transportSpeed must be 0 or 0.25...8 either way, not \(value)")
            }
            changes.append { try device.setTransportControlsPlaybackModeChecked(playing, speed: value) }
        }
        return changes
    }

    /// The string `name` holds, if given; `allowed` names its values in the refusal.
    private static func string(_ settings: [String: JSONValue], _ name: String, _ allowed: String) throws(Refusal) -> String? {
        guard let value = settings[name] else { return nil }
        guard let text = value.string else { throw Refusal(reason: "\(name) must be a string: \(allowed)") }
        return text
    }

    /// The number `name` holds, if given: a JSON number (not a boolean or a string) in `range`.
    private static func number(_ settings: [String: JSONValue], _ name: String, in range: ClosedRange<Double>) throws(Refusal) -> Double? {
        guard let value = settings[name] else { return nil }
        guard let double = value.number, double.isFinite else {
            throw Refusal(reason: "\(name) must be a number in \(range.lowerBound)...\(range.upperBound)")
        }
        guard range.contains(double) else {
            throw Refusal(reason: "\(name) must be in \(range.lowerBound)...\(range.upperBound), not \(double)")
        }
        return double
    }
}
