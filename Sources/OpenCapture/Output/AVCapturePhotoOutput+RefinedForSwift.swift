import Foundation

// The Objective-C forms of properties AVCapturePhotoOutput.h marks NS_REFINED_FOR_SWIFT:
// Apple's Swift interface keeps them public with two leading underscores next to the
// refined (`[OSType]`, `[AVCaptureDevice.FlashMode]`) forms, and code written before the
// refinement (NextLevel) still calls them. Each answers what its refined form does.

extension AVCapturePhotoOutput {
    /// `supportedFlashModes` as numbers (`AVCaptureDevice.FlashMode` raw values).
    public var __supportedFlashModes: [NSNumber] { supportedFlashModes.map { NSNumber(value: $0.rawValue) } }

    /// `availablePhotoPixelFormatTypes` as numbers.
    public var __availablePhotoPixelFormatTypes: [NSNumber] { availablePhotoPixelFormatTypes.map { NSNumber(value: $0) } }

    /// `availableRawPhotoPixelFormatTypes` as numbers.
    public var __availableRawPhotoPixelFormatTypes: [NSNumber] { availableRawPhotoPixelFormatTypes.map { NSNumber(value: $0) } }

    /// `supportedPhotoPixelFormatTypes(for:)` as numbers.
    public func __supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [NSNumber] {
        supportedPhotoPixelFormatTypes(for: fileType).map { NSNumber(value: $0) }
    }

    /// `supportedRawPhotoPixelFormatTypes(for:)` as numbers.
    public func __supportedRawPhotoPixelFormatTypes(for fileType: AVFileType) -> [NSNumber] {
        supportedRawPhotoPixelFormatTypes(for: fileType).map { NSNumber(value: $0) }
    }
}

extension AVCapturePhotoSettings {
    /// `availablePreviewPhotoPixelFormatTypes` as numbers.
    public var __availablePreviewPhotoPixelFormatTypes: [NSNumber] {
        availablePreviewPhotoPixelFormatTypes.map { NSNumber(value: $0) }
    }
}

// iOS 26 (AVCapturePhotoOutput.h): rotating still buffers to match the sensor orientation
// of earlier hardware, for cameras whose sensor is mounted differently from their
// predecessors' (the iPhone 17 front cameras). No camera here is such a camera.
extension AVCapturePhotoOutput {
    /// Whether photos can be rotated to match an earlier generation's sensor orientation:
    /// false, as for every camera before the iPhone 17's front cameras.
    public var isCameraSensorOrientationCompensationSupported: Bool { false }

    /// Whether photos are rotated to match an earlier generation's sensor orientation:
    /// false, since `isCameraSensorOrientationCompensationSupported` is false. Setting it
    /// to true raises, as enabling an unsupported photo output feature does on iOS.
    public var isCameraSensorOrientationCompensationEnabled: Bool {
        get { false }
        set {
            guard newValue else { return }
            AVCaptureException(
                .invalidArgument,
                selectorReason("AVCapturePhotoOutput", "setCameraSensorOrientationCompensationEnabled:",
                    "cameraSensorOrientationCompensationSupported is NO"))
                .raise()
        }
    }
}
