import Foundation

extension AVCaptureDevice {
    class func authorizationStatusBacking(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "authorizationStatusForMediaType:") }
        let denied = mediaType == .video ? DeviceRegistry.current.inaccessibleNodes : DeviceRegistry.current.inaccessibleSoundPCMs
        return denied.isEmpty ? .authorized : .denied
    }

    /// Linux addition: how to get access when `authorizationStatus(for: .video)` is `.denied`,
    /// naming the nodes; nil when access is not denied.
    public class var accessHint: String? {
        let nodes = DeviceRegistry.current.inaccessibleNodes
        guard !nodes.isEmpty else { return nil }
        return "Permission denied opening \(nodes.joined(separator: ", ")). Add your user to the 'video' group "
            + "(sudo usermod -aG video $USER) and log in again."
    }

    class func requestAccessBacking(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "requestAccessForMediaType:completionHandler:") }
        let granted = authorizationStatus(for: mediaType) == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    class func requestAccessBacking(for mediaType: AVMediaType) async -> Bool {
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
