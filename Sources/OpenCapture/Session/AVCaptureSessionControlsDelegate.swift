import Foundation

/// Receives events about a session's controls (iOS 18): when the Camera Control's overlay
/// becomes active, goes fullscreen, leaves fullscreen and becomes inactive.
///
/// All four methods are required, as in Apple's protocol. On Linux the controls become active
/// while a control surface (`CaptureWebServer`'s page) shows them; see
/// `AVCaptureSession.supportsControls` for when each method is called. Each is called on
/// the queue given to `setControlsDelegate(_:queue:)`.
public protocol AVCaptureSessionControlsDelegate: NSObjectProtocol {
    /// The session's controls became active and available for interaction.
    func sessionControlsDidBecomeActive(_ session: AVCaptureSession)
    /// The controls will enter a fullscreen appearance: hide your own sliders and buttons.
    func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession)
    /// The controls will leave the fullscreen appearance (sent before `…DidBecomeInactive`).
    func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession)
    /// The session's controls became inactive.
    func sessionControlsDidBecomeInactive(_ session: AVCaptureSession)
}

/// A controls delegate the session knows without keeping it alive.
struct WeakControlsDelegate {
    weak var value: (any AVCaptureSessionControlsDelegate)?
}
