import Foundation

extension AVCaptureDevice {
    /// Torch modes (the same values as `FlashMode`).
    public enum TorchMode: Int, Sendable {
        case off = 0
        case on = 1
        /// On by itself in dim scenes.
        case auto = 2
    }

    /// The level meaning "as bright as the torch may be now" for `setTorchModeOn(level:)`.
    public static let maxAvailableTorchLevel: Float = .greatestFiniteMagnitude

    var hasTorchBacking: Bool { descriptor.hasTorch }

    var isTorchAvailableBacking: Bool { hasTorch && availableTorchLevel > 0 }

    var isTorchActiveBacking: Bool { lastFrameMetadata.torchLevel > 0 }

    var torchLevelBacking: Float { lastFrameMetadata.torchLevel }

    func isTorchModeSupportedBacking(_ torchMode: TorchMode) -> Bool {
        hasTorch && (torchMode != .auto || descriptor.supportsAutoTorch)
    }

    var torchModeBacking: TorchMode {
        get { core.state.withLock { $0.lens.torchMode } }
        set { enforce { try setTorchMode(newValue) } }
    }

    /// The checked form of setting `torchMode` (Linux addition).
    public func setTorchMode(_ mode: TorchMode) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["torchMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setTorchMode:"
        try requireLock(selector)
        guard isTorchModeSupported(mode) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Unsupported torch mode \(mode.rawValue) - use isTorchModeSupported:"))
        }
        let control: TorchControl =
            switch mode {
            case .off: .off
            case .on: .on(level: 1)
            case .auto: .auto
            }
        submitTorch(control, mode: mode)
    }

    func setTorchModeOnBacking(level: Float) throws {
        var failure: AVError?
        enforce { failure = try setTorchModeOnChecked(level: level) }
        if let failure { throw failure }
    }

    /// The checked form of `setTorchModeOn(level:)` (Linux addition): exceptions are thrown;
    /// an unavailable level is returned.
    public func setTorchModeOnChecked(level: Float) throws(AVCaptureException) -> AVError? {
        let observed = KeyValueChange.willChange(self, keys: ["torchMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setTorchModeOnWithLevel:error:"
        try requireLock(selector)
        guard isTorchModeSupported(.on) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Torch is not supported by this device - use hasTorch"))
        }
        guard level == Self.maxAvailableTorchLevel || (level > 0 && level <= 1) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector,
                "torchLevel \(level) must be greater than 0.0 and less than or equal to 1.0, or AVCaptureMaxAvailableTorchLevel"))
        }
        let available = availableTorchLevel
        let wanted = level == Self.maxAvailableTorchLevel ? available : level
        guard wanted > 0, wanted <= available else {
            return AVError(.torchLevelUnavailable, "The requested torch level is currently not available.")
        }
        submitTorch(.on(level: wanted), mode: .on)
        return nil
    }

    /// The highest torch level heat allows now.
    private var availableTorchLevel: Float {
        TorchAvailability.maximumLevel(pressureLevel: lastFrameMetadata.systemPressureLevel)
    }

    private func submitTorch(_ control: TorchControl, mode: TorchMode) {
        let id = core.controls.enqueue(nil)
        core.state.withLock { $0.lens.torchMode = mode }
        backend.apply(.lens(id: id, torch: control))
    }
}
