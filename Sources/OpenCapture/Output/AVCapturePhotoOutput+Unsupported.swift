import Foundation

extension AVCapturePhotoOutput {
    var isAppleProRAWSupportedBacking: Bool { false }

    var isAppleProRAWEnabledBacking: Bool {
        get { false }
        set {
            if newValue {
                AVCaptureException(
                    .invalidArgument, selectorReason("AVCapturePhotoOutput", "setAppleProRAWEnabled:", "Apple ProRAW is not supported"))
                    .raise()
            }
        }
    }

    var isAutoDeferredPhotoDeliverySupportedBacking: Bool { false }

    var isAutoDeferredPhotoDeliveryEnabledBacking: Bool {
        get { false }
        set {
            if newValue {
                AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVCapturePhotoOutput", "setAutoDeferredPhotoDeliveryEnabled:", "autoDeferredPhotoDeliverySupported is NO"))
                    .raise()
            }
        }
    }
}

/// A photo whose processing the Photos library finishes later (iOS 17). Never delivered
/// here: `isAutoDeferredPhotoDeliverySupported` is false, so
/// `photoOutput(_:didFinishCapturingDeferredPhotoProxy:error:)` is never called.
open class AVCaptureDeferredPhotoProxy: AVCapturePhoto, @unchecked Sendable {}
