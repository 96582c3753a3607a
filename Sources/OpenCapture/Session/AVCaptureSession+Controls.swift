import Foundation

/// The iOS 18 capture controls (the Camera Control button of iPhone 16 models).
///
/// On Linux the Camera Control's part is played by control surfaces: a remote page that
/// shows the session's controls and lets a user change them (`CaptureWebServer`; any app can
/// be one through `controlSurfaceDidAppear()` and its companions). So sessions support
/// controls: `supportsControls` is true, up to `maxControlsCount` controls can be added, and
/// they become active, as Apple documents, only with a controls delegate set, and here while
/// at least one surface shows them.
///
/// The delegate hears `sessionControlsDidBecomeActive` when the first surface appears (with
/// a delegate set and a control added), `…WillEnterFullscreenAppearance` and
/// `…WillExitFullscreenAppearance` around a user's interaction on a surface, and
/// `…DidBecomeInactive` when the last surface goes, the delegate is cleared or the last
/// control removed. All on the delegate's queue, never under the session's locks.
extension AVCaptureSession {

    func validateAddControl(_ control: AVCaptureControl) throws(AVCaptureException) {
        func refuse(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureSession", "addControl:", "Can't add \(control) because \(text) - use -canAddControl:"))
        }
        guard control.isReadyToAdd else { throw refuse("it has no action and action queue (setActionQueue:action:)") }
        if control.membership.withLock({ $0.session != nil }) { throw refuse("it is already in a session") }
        let count = model.withLock { $0.controls.count }
        guard count < maxControlsCount else { throw refuse("the session already has maxControlsCount (\(maxControlsCount)) controls") }
    }

    /// The checked form of `addControl(_:)` (Linux addition): throws instead of ending the
    /// process.
    public func addControlChecked(_ control: AVCaptureControl) throws(AVCaptureException) {
        try validateAddControl(control)
        let claimed = control.membership.withLock { membership -> Bool in
            guard membership.session == nil else { return false }
            membership.session = self
            return true
        }
        guard claimed else { try validateAddControl(control); return }
        updateControls { $0.controls.append(control) }
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
        // A different delegate: the old one hears its controls end, the new one them begin.
        if model.withLock({ $0.controlsDelegate.value }) !== boxed.value {
            updateControls { model in
                model.controlsDelegate = WeakControlsDelegate()
                model.controlsDelegateQueue = nil
            }
        }
        updateControls { model in
            model.controlsDelegate = WeakControlsDelegate(value: boxed.value)
            model.controlsDelegateQueue = boxed.value == nil ? nil : queue
        }
    }

    // MARK: Control surfaces (Linux additions)

    /// Whether the controls are active now: a delegate is set, a control added, and a
    /// control surface shows them (Linux addition; iOS tells only the delegate).
    public var areControlsActive: Bool { model.withLock { $0.controlsActive } }

    /// Whether a user is interacting with the controls on a surface now (iOS: the
    /// fullscreen appearance of the Camera Control's overlay; Linux addition).
    public var areControlsInFullscreenAppearance: Bool { model.withLock { $0.controlsFullscreen } }

    /// A control surface began showing the session's controls (Linux addition). Calls
    /// balance with `controlSurfaceDidDisappear()`.
    public func controlSurfaceDidAppear() {
        updateControls { $0.controlSurfaces += 1 }
    }

    /// A control surface stopped showing the session's controls (Linux addition).
    public func controlSurfaceDidDisappear() {
        updateControls { $0.controlSurfaces = max($0.controlSurfaces - 1, 0) }
    }

    /// A user began (true) or ended (false) an interaction with the controls on a surface:
    /// the delegate hears `…WillEnterFullscreenAppearance` or `…WillExitFullscreenAppearance`
    /// (Linux addition). Ignored while the controls are inactive.
    public func controlSurfaceInteraction(began: Bool) {
        updateControls { model in
            if model.controlsActive { model.controlsFullscreen = began }
        }
    }

    /// Applies `change` to the model, works out what the controls delegate must hear, and
    /// tells it on its queue after the lock is released.
    func updateControls(_ change: (inout Model) -> Void) {
        enum Event { case active, enterFullscreen, exitFullscreen, inactive }
        let (events, delegate, queue) = model.withLock { model -> ([Event], (any AVCaptureSessionControlsDelegate)?, DispatchQueue?) in
            let wasActive = model.controlsActive
            let wasFullscreen = model.controlsFullscreen
            // The delegate a change ends with is the one the controls were active for.
            let before = (model.controlsDelegate.value, model.controlsDelegateQueue)
            change(&model)
            let active = model.controlsDelegate.value != nil && model.controlsDelegateQueue != nil
                && !model.controls.isEmpty && model.controlSurfaces > 0
            model.controlsActive = active
            if !active { model.controlsFullscreen = false }
            var events: [Event] = []
            if !wasActive && active { events.append(.active) }
            if wasFullscreen && !model.controlsFullscreen { events.append(.exitFullscreen) }
            if !wasFullscreen && model.controlsFullscreen { events.append(.enterFullscreen) }
            if wasActive && !active { events.append(.inactive) }
            let told = events.contains(.active) ? (model.controlsDelegate.value, model.controlsDelegateQueue) : before
            return (events, told.0, told.1)
        }
        guard !events.isEmpty, let delegate, let queue else { return }
        let boxed = UncheckedSendable((delegate, self))
        queue.async {
            let (delegate, session) = boxed.value
            for event in events {
                switch event {
                case .active: delegate.sessionControlsDidBecomeActive(session)
                case .enterFullscreen: delegate.sessionControlsWillEnterFullscreenAppearance(session)
                case .exitFullscreen: delegate.sessionControlsWillExitFullscreenAppearance(session)
                case .inactive: delegate.sessionControlsDidBecomeInactive(session)
                }
            }
        }
    }
}
