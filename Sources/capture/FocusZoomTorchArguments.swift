import Foundation
import OpenCapture

/// What `--focus`, `--zoom` and `--torch` ask for, validated against the device and the
/// format it will use before the camera starts.
struct LensChoice {
    enum Focus: Equatable {
        case mode(AVCaptureDevice.FocusMode)
        case lensPosition(Float)
    }

    enum Torch: Equatable {
        case mode(AVCaptureDevice.TorchMode)
        case level(Float)
    }

    var focus: Focus?
    var zoom: CGFloat?
    var torch: Torch?

    /// Checks a `--focus` value: auto, continuous, locked or a lens position 0...1.
    @Sendable static func checkFocus(_ option: String, _ text: String) throws {
        guard ["auto", "continuous", "locked"].contains(text.lowercased()) || StrictNumber.decimal(text, in: 0...1) != nil else {
            throw UsageError.value(option, text, allowed: "auto, continuous, locked or a lens position in 0...1")
        }
    }

    /// Checks a `--torch` value: off, on, auto or a level in (0, 1].
    @Sendable static func checkTorch(_ option: String, _ text: String) throws {
        guard ["off", "on", "auto"].contains(text.lowercased()) || StrictNumber.decimal(text, in: 0...1, excludingLowerBound: true) != nil else {
            throw UsageError.value(option, text, allowed: "off, on, auto or a level in (0, 1]")
        }
    }

    init(_ args: Arguments, device: AVCaptureDevice, format: AVCaptureDevice.Format) throws {
        if let text = args.value("--focus") {
            switch text.lowercased() {
            case "auto": focus = .mode(.autoFocus)
            case "continuous": focus = .mode(.continuousAutoFocus)
            case "locked": focus = .mode(.locked)
            default: focus = args.decimal("--focus").map { .lensPosition(Float($0)) }
            }
            let needsLens: Bool = if case .mode(.locked) = focus { false } else { true }
            if needsLens && !device.isLockingFocusWithCustomLensPositionSupported {
                throw UsageError("\(device.localizedName) has a fixed-focus lens; --focus can only be 'locked'")
            }
        }
        if let text = args.value("--zoom"), let value = args.decimal("--zoom") {
            let maximum = Double(format.videoMaxZoomFactor)
            guard value >= 1, value <= maximum else {
                throw UsageError(String(format: "--zoom %@ is outside the format's zoom range 1...%g", text, maximum))
            }
            zoom = CGFloat(value)
        }
        if let text = args.value("--torch") {
            switch text.lowercased() {
            case "off": torch = .mode(.off)
            case "on": torch = .mode(.on)
            case "auto": torch = .mode(.auto)
            default: torch = args.decimal("--torch").map { .level(Float($0)) }
            }
            if torch != .mode(.off) && !device.hasTorch {
                throw UsageError("\(device.localizedName) has no torch")
            }
        }
    }

    /// Applies the choice; the device must be locked for configuration.
    func apply(to device: AVCaptureDevice) throws {
        switch focus {
        case .mode(let mode): try device.setFocusMode(mode)
        case .lensPosition(let position): try device.setFocusModeLockedChecked(lensPosition: position)
        case nil: break
        }
        if let zoom { try device.setVideoZoomFactor(zoom) }
        switch torch {
        case .mode(let mode): try device.setTorchMode(mode)
        case .level(let level): if let error = try device.setTorchModeOnChecked(level: level) { throw error }
        case nil: break
        }
    }
}
