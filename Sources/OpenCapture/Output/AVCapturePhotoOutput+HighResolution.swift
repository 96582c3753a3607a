import Foundation

extension AVCapturePhotoOutput {
    var isHighResolutionCaptureEnabledBacking: Bool {
        get { highResolutionCaptureIsEnabled }
        set {
            if let format = device?.activeFormat {
                maxPhotoDimensions = newValue
                    ? (format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions) : format.formatDescription.dimensions
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
