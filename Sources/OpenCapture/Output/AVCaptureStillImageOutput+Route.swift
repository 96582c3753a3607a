import Foundation

/// A still image output takes its stills from the device, not from routes; a session holds
/// it or a photo output, not both.
extension AVCaptureStillImageOutput: RouteConsumer {
    var soleKindInSession: String? { "still" }
}
