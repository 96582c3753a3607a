import Foundation

extension AVCaptureDevice {
    /// The checked form of setting `activeColorSpace` (Linux addition).
    public func setActiveColorSpace(_ colorSpace: AVCaptureColorSpace) throws(AVCaptureException) {
        try changeProperty(
            "setActiveColorSpace:", announcing: ["activeColorSpace"], supported: activeFormat.supportedColorSpaces.contains(colorSpace),
            unsupported: "Unsupported color space - use activeFormat.supportedColorSpaces"
        ) {
            core.format.colorSpace = colorSpace.rawValue
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
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
        core.format.colorSpace = (wantsWide ? AVCaptureColorSpace.P3_D65 : .sRGB).rawValue
    }
}
