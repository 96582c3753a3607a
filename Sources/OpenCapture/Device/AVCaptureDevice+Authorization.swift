import Foundation

extension AVCaptureDevice {
    /// Whether the process may capture the media type.
    ///
    /// Linux has no consent prompt: simulated cameras are always authorized; a real camera
    /// whose device node cannot be opened (not in the `video` group) reports `.denied`.
    /// Media types other than video and audio raise, as on iOS.
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "authorizationStatusForMediaType:") }
        return .authorized
    }

    /// Asks for access; the handler runs on an arbitrary queue with the answer.
    public class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "requestAccessForMediaType:completionHandler:") }
        let granted = authorizationStatus(for: mediaType) == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    /// Asks for access and returns the answer.
    public class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        await withCheckedContinuation { continuation in
            requestAccess(for: mediaType) { continuation.resume(returning: $0) }
        }
    }

    static func validateAuthorizationMediaType(_ mediaType: AVMediaType, selector: String) throws(AVCaptureException) {
        guard mediaType == .video || mediaType == .audio else {
            throw AVCaptureException(
                .invalidArgument,
                "+[AVCaptureDevice \(selector)] Invalid media type, must be AVMediaTypeVideo or AVMediaTypeAudio")
        }
    }
}
