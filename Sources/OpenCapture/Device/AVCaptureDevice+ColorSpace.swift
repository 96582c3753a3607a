import Foundation

extension AVCaptureDevice {
    /// The colour space frames are rendered in (default `.sRGB`).
    ///
    /// `.P3_D65` renders camera RGB into Display P3 primaries instead of sRGB/BT.709 (same
    /// white, same sRGB curve), so saturated colours beyond sRGB keep their saturation, and
    /// tags buffers `kCVImageBufferColorPrimaries_P3_D65`. `.HLG_BT2020`, listed only by 10-bit
    /// ('x420') formats, renders BT.2020 primaries with the ARIB STD-B67 hybrid log-gamma
    /// curve and the BT.2020 Y'CbCr matrix, tags buffers `kCVImageBufferColorPrimaries_ITU_R_2020`,
    /// `kCVImageBufferTransferFunction_ITU_R_2100_HLG` and `kCVImageBufferYCbCrMatrix_ITU_R_2020`,
    /// and movies the same (HEVC Main 10 from 10-bit frames). Setting it needs the configuration
    /// lock and raises `NSInvalidArgumentException` for a colour space the active format does
    /// not list in `supportedColorSpaces`. While a session runs, the change reaches the
    /// stream at the next frame boundary (a new buffer pool). A session whose
    /// `automaticallyConfiguresCaptureDeviceForWideColor` is true (the default) sets it when
    /// it configures (see `AVCaptureSession`); turn that off to choose yourself.
    /// Photos stay sRGB.
    public var activeColorSpace: AVCaptureColorSpace {
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
