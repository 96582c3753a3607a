import Foundation

extension AVCapturePhotoOutput {
    /// Whether Apple ProRAW photos can be taken: false, as on iPhones without ProRAW (the
    /// simulated cameras give Bayer raw only).
    public var isAppleProRAWSupported: Bool { false }

    /// Always false; setting true raises `NSInvalidArgumentException`, as iOS does when
    /// `isAppleProRAWSupported` is false.
    public var isAppleProRAWEnabled: Bool {
        get { false }
        set {
            if newValue {
                AVCaptureException(
                    .invalidArgument, selectorReason("AVCapturePhotoOutput", "setAppleProRAWEnabled:", "Apple ProRAW is not supported"))
                    .raise()
            }
        }
    }

    /// Whether photos may be delivered later as proxies for the Photos library to finish:
    /// false, since there is no Photos library to finish them.
    public var isAutoDeferredPhotoDeliverySupported: Bool { false }

    /// Always false; setting true raises `NSInvalidArgumentException`, as iOS does when
    /// `isAutoDeferredPhotoDeliverySupported` is false.
    public var isAutoDeferredPhotoDeliveryEnabled: Bool {
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
