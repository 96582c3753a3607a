import Foundation

extension AVCaptureDevice {
    /// Whether the process may capture the media type.
    ///
    /// Linux has no consent prompt: video is `.denied` when a camera's device node exists
    /// that this process may not open (EACCES: the user is not in the `video` group; see
    /// `accessHint`), otherwise `.authorized`; audio likewise when an ALSA capture PCM exists
    /// that it may not open (not in the `audio` group). Simulated devices stay usable either way.
    /// Media types other than video and audio raise, as on iOS.
    public class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "authorizationStatusForMediaType:") }
        let denied = mediaType == .video ? DeviceRegistry.shared.inaccessibleNodes : DeviceRegistry.shared.inaccessibleSoundPCMs
        return denied.isEmpty ? .authorized : .denied
    }

    /// Linux addition: how to get access when `authorizationStatus(for: .video)` is `.denied`,
    /// naming the nodes; nil when access is not denied.
    public class var accessHint: String? {
        let nodes = DeviceRegistry.shared.inaccessibleNodes
        guard !nodes.isEmpty else { return nil }
        return "Permission denied opening \(nodes.joined(separator: ", ")). Add your user to the 'video' group "
            + "(sudo usermod -aG video $USER) and log in again."
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
