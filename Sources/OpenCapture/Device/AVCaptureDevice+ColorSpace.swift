import Foundation

extension AVCaptureDevice {
    var activeColorSpaceBacking: AVCaptureColorSpace {
        get { AVCaptureColorSpace(rawValue: core.state.withLock { $0.activeColorSpace }) ?? .sRGB }
        set { enforce { try setActiveColorSpace(newValue) } }
    }

    /// The checked form of setting `activeColorSpace` (Linux addition).
    public func setActiveColorSpace(_ colorSpace: AVCaptureColorSpace) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["activeColorSpace"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setActiveColorSpace:"
        try requireLock(selector)
        guard activeFormat.supportedColorSpaces.contains(colorSpace) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "Unsupported color space - use activeFormat.supportedColorSpaces"))
        }
        core.state.withLock { $0.activeColorSpace = colorSpace.rawValue }
        for session in sessions { session.deviceDidChangeFrameDurations(self) }
    }

    /// The session's wide-colour choice (`automaticallyConfiguresCaptureDeviceForWideColor`):
    /// P3 when the session has a photo output and no video data, movie file or stream output
    /// (a stream is tagged BT.709) and the
    /// active format supports P3, else sRGB, as iOS does for photo workflows.
    package func configureWideColor(for session: AVCaptureSession) {
        let outputs = session.outputs
        let wantsWide =
            outputs.contains { $0 is AVCapturePhotoOutput }
            && !outputs.contains { $0 is AVCaptureVideoDataOutput || $0 is AVCaptureMovieFileOutput || $0 is AVCaptureStreamOutput }
            && activeFormat.supportedColorSpaces.contains(.P3_D65)
        core.state.withLock { $0.activeColorSpace = (wantsWide ? AVCaptureColorSpace.P3_D65 : .sRGB).rawValue }
    }
}
