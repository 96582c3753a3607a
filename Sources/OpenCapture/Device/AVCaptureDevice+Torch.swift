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

    /// The checked form of setting `torchMode` (Linux addition).
    public func setTorchMode(_ mode: TorchMode) throws(AVCaptureException) {
        try changeProperty(
            "setTorchMode:", announcing: ["torchMode"], supported: isTorchModeSupported(mode),
            unsupported: "Unsupported torch mode \(mode.rawValue) - use isTorchModeSupported:"
        ) {
            let control: TorchControl =
                switch mode {
                case .off: .off
                case .on: .on(level: 1)
                case .auto: .auto
                }
            return torchChange(control, mode: mode)
        }
    }

    /// The checked form of `setTorchModeOn(level:)` (Linux addition): exceptions are thrown;
    /// an unavailable level is returned.
    public func setTorchModeOnChecked(level: Float) throws(AVCaptureException) -> AVError? {
        var unavailable: AVError?
        let selector = "setTorchModeOnWithLevel:error:"
        try changeProperty(
            selector, announcing: ["torchMode"], supported: isTorchModeSupported(.on),
            unsupported: "Torch is not supported by this device - use hasTorch"
        ) { () throws(AVCaptureException) -> ControlChange? in
            guard level == Self.maxAvailableTorchLevel || (level > 0 && level <= 1) else {
                throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector,
                    "torchLevel \(level) must be greater than 0.0 and less than or equal to 1.0, or AVCaptureMaxAvailableTorchLevel"))
            }
            let available = availableTorchLevel
            let wanted = level == Self.maxAvailableTorchLevel ? available : level
            guard wanted > 0, wanted <= available else {
                unavailable = AVError(.torchLevelUnavailable, "The requested torch level is currently not available.")
                return nil
            }
            return torchChange(.on(level: wanted), mode: .on)
        }
        return unavailable
    }

    /// The highest torch level heat allows now.
    private var availableTorchLevel: Float {
        TorchAvailability.maximumLevel(pressureLevel: lastFrameMetadata.systemPressureLevel)
    }

    private func torchChange(_ control: TorchControl, mode: TorchMode) -> ControlChange {
        ControlChange(.lens(id: 0, torch: control), record: { [core] _ in core.torchFlash.torchMode = mode })
    }

    /// The torch keys, in the order the device's key table lists them.
    static func torchObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.torchMode, "torchMode"),
            ObservableKey(\Root.torchLevel, "torchLevel"),
            ObservableKey(\Root.isTorchActive, "torchActive"),
            ObservableKey(\Root.isTorchAvailable, "torchAvailable"),
            ObservableKey(\Root.isFlashAvailable, "flashAvailable"),
        ]
    }
}
