import Foundation

/// The abstract base class of the iOS 18 capture controls that the Camera Control button
/// drives (`AVCaptureSlider`, `AVCaptureIndexPicker`, `AVCaptureSystemZoomSlider`,
/// `AVCaptureSystemExposureBiasSlider`).
///
/// As in Apple's header, `init()` is unavailable: make one of the concrete subclasses.
/// On Linux the Camera Control is a remote control surface: `CaptureWebServer`'s page shows
/// a session's controls while someone watches it, and a user's change there reaches the
/// control as a press of the Camera Control does on iOS (the value changes and the system
/// calls the control's action). See `AVCaptureSession.supportsControls`.
///
/// Threads: every property may be read and set from any thread; Apple asks that values be
/// changed on the control's action queue.
open class AVCaptureControl: NSObject, @unchecked Sendable {
    struct Membership {
        var isEnabled = true
        /// The session the control was added to (weak: the session owns its controls).
        weak var session: AVCaptureSession?
    }

    let membership = Mutex(Membership())

    /// Unavailable, as in Apple's header (`AV_INIT_UNAVAILABLE`).
    @available(*, unavailable, message: "AVCaptureControl is abstract; create a concrete control")
    public override init() { fatalError("AVCaptureControl.init() is unavailable") }

    /// The initialiser the concrete controls call.
    init(concreteControl: Void) { super.init() }

    /// Whether the control is enabled for user interaction (default true). A disabled
    /// control's value may still change from code, but not from a control surface.
    open var isEnabled: Bool {
        get { membership.withLock { $0.isEnabled } }
        set { membership.withLock { $0.isEnabled = newValue } }
    }

    /// Whether the control has what Apple requires before it is added to a session (sliders
    /// and pickers: an action and an action queue).
    var isReadyToAdd: Bool { true }

    /// Checks that a user may change the control now, as the Camera Control only lets them
    /// while its overlay shows: the control is enabled and in a session whose controls are
    /// active (Linux addition, for control surfaces).
    func checkUserMayChange(_ selector: String) throws(AVCaptureException) {
        let (enabled, session) = membership.withLock { ($0.isEnabled, $0.session) }
        guard let session, session.areControlsActive else {
            throw AVCaptureException(
                .generic, selectorReason(String(describing: type(of: self)), selector, "the control is not in a session whose controls are active"))
        }
        guard enabled else {
            throw AVCaptureException(.generic, selectorReason(String(describing: type(of: self)), selector, "the control is disabled"))
        }
    }
}

/// An action and the queue it runs on, as `setActionQueue(_:action:)` stores them.
struct ControlAction<Argument>: @unchecked Sendable {
    let queue: DispatchQueue
    let action: (Argument) -> Void

    /// Calls the action on its queue with `argument`, as the system does after a user's
    /// change.
    func call(_ argument: Argument) {
        let call = UncheckedSendable((action, argument))
        queue.async { call.value.0(call.value.1) }
    }
}
