import Foundation

extension AVCapturePhotoOutput {
    /// Whether photos may be taken at the active format's high-resolution still size
    /// (deprecated in iOS 16 for `maxPhotoDimensions`). Until set it reads true while
    /// `maxPhotoDimensions` is that size (the default). Setting it keeps the value and makes
    /// `maxPhotoDimensions` that size (true) or the format's video size (false), as photos
    /// were before high resolution was asked for; setting `maxPhotoDimensions` afterwards
    /// returns it to following that size.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    public var isHighResolutionCaptureEnabled: Bool {
        get { highResolutionCaptureIsEnabled }
        set {
            if let format = device?.activeFormat {
                maxPhotoDimensions = newValue
                    ? (format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions) : format.formatDescription.dimensions
            }
            state.withLock { $0.highResolutionCapture = newValue }
        }
    }

    /// `isHighResolutionCaptureEnabled` without the deprecation warning.
    var highResolutionCaptureIsEnabled: Bool {
        if let chosen = state.withLock({ $0.highResolutionCapture }) { return chosen }
        guard let format = device?.activeFormat else { return false }
        return maxPhotoDimensions.isSameSize(as: format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions)
    }
}

extension AVCapturePhotoSettings {
    /// Whether this photo is taken at the output's high-resolution size (deprecated in
    /// iOS 16 for `maxPhotoDimensions`; default false). True while the output's
    /// `isHighResolutionCaptureEnabled` is false makes `capturePhoto` raise, as on iOS;
    /// the size itself follows `maxPhotoDimensions`, which defaults to the output's.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    public var isHighResolutionPhotoEnabled: Bool {
        get { isHighResolutionPhotoEnabledSetting }
        set { isHighResolutionPhotoEnabledSetting = newValue }
    }
}
