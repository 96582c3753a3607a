import Foundation

extension AVCapturePhotoOutput {
    var isHighResolutionCaptureEnabledBacking: Bool {
        get { highResolutionCaptureIsEnabled }
        set {
            // The video size (false) need not be a supported photo size: no check, as the
            // deprecated switch predates the rule.
            if let format = device?.activeFormat {
                storeMaxPhotoDimensions(
                    newValue ? (format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions) : format.formatDescription.dimensions)
            }
            settingsState.withLock { $0.highResolutionCapture = newValue }
        }
    }

    /// `isHighResolutionCaptureEnabled` without the deprecation warning.
    var highResolutionCaptureIsEnabled: Bool {
        if let chosen = settingsState.withLock({ $0.highResolutionCapture }) { return chosen }
        guard let format = device?.activeFormat else { return false }
        return maxPhotoDimensions.isSameSize(as: format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions)
    }
}

extension AVCapturePhotoSettings {
    var isHighResolutionPhotoEnabledBacking: Bool {
        get { isHighResolutionPhotoEnabledSetting }
        set { isHighResolutionPhotoEnabledSetting = newValue }
    }
}

extension AVCapturePhotoOutput {
    /// `maxPhotoDimensions = dimensions`, throwing the exception the setter raises instead of
    /// ending the process: NSInvalidArgumentException when the output has a source device and
    /// `dimensions` is not one of its `activeFormat.supportedMaxPhotoDimensions` (Apple's
    /// reason, word for word). With no source device there is no active format to match:
    /// the size is kept.
    public func setMaxPhotoDimensionsChecked(_ dimensions: CMVideoDimensions) throws(AVCaptureException) {
        if let format = device?.activeFormat, !format.supportedMaxPhotoDimensions.contains(where: { $0.isSameSize(as: dimensions) }) {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason(
                    "AVCapturePhotoOutput", "setMaxPhotoDimensions:",
                    "maxPhotoDimensions must match one of the AVVideoDimension found in the video source device's active format's supportedMaxPhotoDimensions"))
        }
        storeMaxPhotoDimensions(dimensions)
    }

    /// Keeps `dimensions` as the output's size; the deprecated high-resolution switch
    /// follows the size again.
    func storeMaxPhotoDimensions(_ dimensions: CMVideoDimensions) {
        settingsState.withLock {
            $0.maxPhotoDimensions = dimensions
            $0.highResolutionCapture = nil
        }
    }
}
