import Foundation

/// The abstract base class of the iOS 18 capture controls that the Camera Control button
/// drives (`AVCaptureSlider`, `AVCaptureIndexPicker`, `AVCaptureSystemZoomSlider`,
/// `AVCaptureSystemExposureBiasSlider`).
///
/// As in Apple's header, `init()` is unavailable: make one of the concrete subclasses.
/// Controls work as values on Linux (titles, ranges, the selected value, its rules), but no
/// session supports them (`AVCaptureSession.supportsControls` is false), so they cannot be
/// added to a session and the system never calls their actions.
///
/// Threads: every property may be read and set from any thread; Apple asks that values be
/// changed on the control's action queue.
open class AVCaptureControl: NSObject, @unchecked Sendable {
    private let enabledState = Mutex<Bool>(true)

    /// Unavailable, as in Apple's header (`AV_INIT_UNAVAILABLE`).
    @available(*, unavailable, message: "AVCaptureControl is abstract; create a concrete control")
    public override init() { fatalError("AVCaptureControl.init() is unavailable") }

    /// The initialiser the concrete controls call.
    init(concreteControl: Void) { super.init() }

    /// Whether the control is enabled for user interaction (default true). A disabled
    /// control's value may still change.
    open var isEnabled: Bool {
        get { enabledState.withLock { $0 } }
        set { enabledState.withLock { $0 = newValue } }
    }
}

/// An action and the queue it runs on, as `setActionQueue(_:action:)` stores them.
struct ControlAction<Argument>: @unchecked Sendable {
    let queue: DispatchQueue
    let action: (Argument) -> Void
}
