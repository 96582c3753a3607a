import Foundation

extension AVCaptureDevice {
    class func authorizationStatusBacking(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        enforce { try validateAuthorizationMediaType(mediaType, selector: "authorizationStatusForMediaType:") }
        let denied = mediaType == .video ? DeviceRegistry.current.inaccessibleNodes : DeviceRegistry.current.inaccessibleSoundPCMs
        return denied.isEmpty ? .authorized : .denied
    }

    /// Linux addition: how to get access when `authorizationStatus(for: .video)` is `.denied`,
    /// naming the device nodes (or the Camera portal, for a sandboxed app); nil when access is
    /// not denied.
    public class var accessHint: String? {
        let denied = DeviceRegistry.current.inaccessibleNodes
        guard !denied.isEmpty else { return nil }
        // Device nodes are paths; what else a provider reports (the portal) says its own remedy.
        let nodes = denied.filter { $0.hasPrefix("/") }
        let others = denied.filter { !$0.hasPrefix("/") }
        let group = nodes.isEmpty
            ? [] : ["Permission denied opening \(nodes.joined(separator: ", ")). Add your user to the 'video' group (sudo usermod -aG video $USER) and log in again."]
        return (group + others).joined(separator: " ")
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
