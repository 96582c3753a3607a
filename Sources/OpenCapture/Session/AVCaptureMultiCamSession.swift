import Foundation

/// A session running several cameras at once (iOS 13): the simulated cameras together,
/// or several V4L2 cameras, each with its own outputs.
///
/// As on iOS: the preset is fixed at `.inputPriority` (each camera keeps its own active
/// format, which must be `isMultiCamSupported`); inputs and outputs are usually added with
/// `addInputWithNoConnections` / `addOutputWithNoConnections` and linked with
/// `AVCaptureConnection(inputPorts:output:)`; a camera whose connections are all disabled
/// stops streaming. `hardwareCost` and `systemPressureCost` above 1 mean the configuration
/// cannot run, or cannot run for long; a session started with a hardware cost above 1
/// reports `AVError.sessionHardwareCostOverage` and does not run.
open class AVCaptureMultiCamSession: AVCaptureSession, @unchecked Sendable {
    /// Whether this system can run several cameras at once: yes, every camera here can.
    open class var isMultiCamSupported: Bool { true }

    public override init() {
        super.init()
        model.withLock { $0.preset = .inputPriority }
    }

    override var runsSeveralCameras: Bool { true }

    /// Whether the output can be added: it is in no session and can be fed. Unlike a plain
    /// session, outputs of one kind may be several (a photo or movie output per camera,
    /// "multiple AVCaptureOutputs of the same type", WWDC 2019 session 225), each connected
    /// to its camera with `addConnection`.
    open override func canAddOutput(_ output: AVCaptureOutput) -> Bool {
        output.session == nil && output.consumer != nil
    }

    /// Only `.inputPriority`: each camera's own active format decides.
    open override func canSetSessionPreset(_ preset: Preset) -> Bool { preset == .inputPriority }

    /// The larger of two shares, each above 1 meaning the session cannot run: the cameras'
    /// pixel rate over two 1920x1080 streams at 60 fps (the readout budget this system grants
    /// multi-cam sessions; phones offer about that), and the busiest USB bandwidth domain's
    /// isochronous bytes over its periodic budget (V4L2 cameras on USB,
    /// `AVCaptureMultiCamSession+BusBudget.swift`; cameras on no bus add nothing there).
    open override var hardwareCost: Float {
        Float(max(pixelRate / Self.readoutBudget, busShare))
    }

    /// Pixels per second a multi-cam session may read out.
    static let readoutBudget = 2.0 * 1920 * 1080 * 60

    /// The cameras' pixel rates as shares of what their thermal models can sustain (the
    /// rate whose steady temperature reaches the shutdown threshold; the simulated cameras':
    /// 120 °C per gigapixel per second above 25 °C, shutdown at 70 °C), summed; cameras
    /// without a thermal model have no thermal budget and cost nothing here
    /// (`AVCaptureMultiCamSession+ThermalBudget.swift`). Above 1 the session will be
    /// interrupted by system pressure sooner or later.
    open var systemPressureCost: Float {
        Float(thermalShare)
    }

    /// Pixels per second of every camera input at its active format and fastest frame rate.
    private var pixelRate: Double {
        deviceInputs.reduce(0) { $0 + Self.pixelRate(of: $1.device) }
    }

    /// Pixels per second of a camera at its active format and fastest frame rate.
    static func pixelRate(of device: AVCaptureDevice) -> Double {
        let size = device.activeFormat.formatDescription.dimensions
        return Double(size.width) * Double(size.height) * frameRate(of: device)
    }

    /// A camera's fastest frame rate at its active format (30 when it has none set).
    static func frameRate(of device: AVCaptureDevice) -> Double {
        let duration = device.activeVideoMinFrameDuration
        return duration.isNumeric && duration.seconds > 0 ? 1 / duration.seconds : 30
    }
}
