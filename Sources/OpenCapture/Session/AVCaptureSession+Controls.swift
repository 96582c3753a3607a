import Foundation

/// The iOS 18 capture controls (the Camera Control button of iPhone 16 models).
///
/// A Linux machine has no Camera Control, so every session answers as an iPhone without one:
/// `supportsControls` is false, `maxControlsCount` is 0, `canAddControl(_:)` is false for
/// every control, `addControl(_:)` raises `NSInvalidArgumentException` as Apple documents for
/// a control that cannot be added, and `controls` stays empty.
extension AVCaptureSession {
    /// Whether session controls are supported on this platform: false (no Camera Control).
    public var supportsControls: Bool { false }

    /// The most controls the session takes: 0, since none can be added here.
    public var maxControlsCount: Int { 0 }

    /// The controls added to the session: always empty on Linux.
    public var controls: [AVCaptureControl] { [] }

    /// Whether the control can be added: false on Linux, where controls are unsupported.
    ///
    /// Where controls are supported, Apple also requires sliders and pickers to have an
    /// action and action queue set first (`setActionQueue(_:action:)`).
    public func canAddControl(_ control: AVCaptureControl) -> Bool {
        (try? validateAddControl(control)) != nil
    }

    func validateAddControl(_ control: AVCaptureControl) throws(AVCaptureException) {
        guard supportsControls else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSession", "addControl:",
                    "Can't add \(control) because controls are not supported on this platform - use -supportsControls and -canAddControl:"))
        }
    }

    /// Adds a control. Raises `NSInvalidArgumentException` when `canAddControl(_:)` is false,
    /// which on Linux is always.
    public func addControl(_ control: AVCaptureControl) {
        enforce { try addControlChecked(control) }
    }

    /// The checked form of `addControl(_:)` (Linux addition): throws instead of ending the
    /// process.
    public func addControlChecked(_ control: AVCaptureControl) throws(AVCaptureException) {
        try validateAddControl(control)
    }

    /// Removes a control from the session. A control the session does not hold (on Linux,
    /// every control) is left alone, as `removeInput(_:)` leaves an input it does not hold.
    public func removeControl(_ control: AVCaptureControl) {}

    /// Sets the delegate that hears about the controls and the queue it is called on.
    ///
    /// A delegate with a nil queue raises `NSInvalidArgumentException`, as on iOS; a nil
    /// delegate may have a nil queue. The delegate is held weakly. On Linux controls never
    /// become active, so the delegate is never called.
    public func setControlsDelegate(_ controlsDelegate: (any AVCaptureSessionControlsDelegate)?, queue controlsDelegateCallbackQueue: DispatchQueue?) {
        enforce { try setControlsDelegateChecked(controlsDelegate, queue: controlsDelegateCallbackQueue) }
    }

    /// The checked form of `setControlsDelegate(_:queue:)` (Linux addition).
    public func setControlsDelegateChecked(_ delegate: (any AVCaptureSessionControlsDelegate)?, queue: DispatchQueue?) throws(AVCaptureException) {
        if delegate != nil && queue == nil {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSession", "setControlsDelegate:queue:",
                    "controlsDelegateCallbackQueue cannot be NULL"))
        }
        let boxed = UncheckedSendable(delegate)
        model.withLock { model in
            model.controlsDelegate = WeakControlsDelegate(value: boxed.value)
            model.controlsDelegateQueue = boxed.value == nil ? nil : queue
        }
    }

    /// The controls delegate, if it is still alive.
    public var controlsDelegate: (any AVCaptureSessionControlsDelegate)? {
        model.withLock { $0.controlsDelegate.value }
    }

    /// The queue the controls delegate is called on.
    public var controlsDelegateCallbackQueue: DispatchQueue? {
        model.withLock { $0.controlsDelegateQueue }
    }
}
