import Foundation

extension AVCaptureDevice {
    /// The checked form of setting `activeColorSpace` (Linux addition).
    public func setActiveColorSpace(_ colorSpace: AVCaptureColorSpace) throws(AVCaptureException) {
        try changeProperty(
            "setActiveColorSpace:", announcing: ["activeColorSpace"], supported: activeFormat.supportedColorSpaces.contains(colorSpace),
            unsupported: "Not supported - use activeFormat.supportedColorSpaces"  // Apple's runtime reason, word for word
        ) {
            core.format.colorSpace = colorSpace.rawValue
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
    }

    /// The session's wide-colour choice (`automaticallyConfiguresCaptureDeviceForWideColor`):
    /// P3 when an output prefers it (a photo output) and none needs sRGB (video data, movie
    /// file and stream outputs; a stream is tagged BT.709) and the active format supports
    /// P3, else sRGB, as iOS does for photo workflows. The outputs answer through
    /// `RouteConsumer.wideColorPreference`.
    package func configureWideColor(for session: AVCaptureSession) {
        let preferences = session.outputs.compactMap { $0.consumer?.wideColorPreference }
        let wantsWide =
            preferences.contains(.prefersWide) && !preferences.contains(.needsStandard)
            && activeFormat.supportedColorSpaces.contains(.P3_D65)
        core.format.colorSpace = (wantsWide ? AVCaptureColorSpace.P3_D65 : .sRGB).rawValue
    }
}
