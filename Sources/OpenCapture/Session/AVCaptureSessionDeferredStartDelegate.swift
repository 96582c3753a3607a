import Foundation

/// Receives events about a session's deferred start (iOS 26): the session is about to start
/// its deferred outputs, and has started them.
///
/// Both are called on the queue given to
/// `setDeferredStartDelegate(_:deferredStartDelegateCallbackQueue:)`, once per run of
/// deferred start (each `startRunning()`), whether it runs automatically or through
/// `runDeferredStartWhenNeeded()`. `sessionWillRunDeferredStart(_:)` does not hold the start
/// back: the deferred outputs may already be starting when it runs.
public protocol AVCaptureSessionDeferredStartDelegate: NSObjectProtocol {
    /// Deferred start is about to run.
    func sessionWillRunDeferredStart(_ session: AVCaptureSession)
    /// Deferred start has run: the deferred outputs are receiving media.
    func sessionDidRunDeferredStart(_ session: AVCaptureSession)
}

extension AVCaptureSessionDeferredStartDelegate {
    // Defaults, so a delegate may implement only the call it needs.
    public func sessionWillRunDeferredStart(_ session: AVCaptureSession) {}
    public func sessionDidRunDeferredStart(_ session: AVCaptureSession) {}
}

/// A deferred-start delegate the session knows without keeping it alive.
struct WeakDeferredStartDelegate {
    weak var value: (any AVCaptureSessionDeferredStartDelegate)?
}
