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

// MARK: Live Photos, zero shutter lag, responsive capture, fast capture prioritization
//
// None is offered: as on a device without them, each `…Supported` is false, the switches
// stay false, and turning one on raises `NSInvalidArgumentException`.

extension AVCapturePhotoOutput {
    private func refuse(_ selector: String, _ text: String) -> Never {
        AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text)).raise()
    }

    /// Whether Live Photos (a still with a movie around it) can be taken: false.
    public var isLivePhotoCaptureSupported: Bool { false }

    /// Always false; true raises, as iOS does when `isLivePhotoCaptureSupported` is false.
    public var isLivePhotoCaptureEnabled: Bool {
        get { false }
        set { if newValue { refuse("setLivePhotoCaptureEnabled:", "livePhotoCaptureSupported is NO") } }
    }

    /// Always false; true raises, since Live Photo capture cannot be enabled.
    public var isLivePhotoCaptureSuspended: Bool {
        get { false }
        set { if newValue { refuse("setLivePhotoCaptureSuspended:", "livePhotoCaptureEnabled is NO") } }
    }

    /// Always false (iOS 17); true raises, as without Live Photo support.
    public var preservesLivePhotoCaptureSuspendedOnSessionStop: Bool {
        get { false }
        set { if newValue { refuse("setPreservesLivePhotoCaptureSuspendedOnSessionStop:", "livePhotoCaptureSupported is NO") } }
    }

    /// Always false; true raises, as without Live Photo support.
    public var isLivePhotoAutoTrimmingEnabled: Bool {
        get { false }
        set { if newValue { refuse("setLivePhotoAutoTrimmingEnabled:", "livePhotoCaptureSupported is NO") } }
    }

    /// Codecs for Live Photo movies: none.
    public var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] { [] }

    /// Whether photos can come from frames taken before `capturePhoto` (iOS 17): false;
    /// photos are exposed after the call.
    public var isZeroShutterLagSupported: Bool { false }

    /// Always false; true raises, as iOS does when `isZeroShutterLagSupported` is false.
    public var isZeroShutterLagEnabled: Bool {
        get { false }
        set { if newValue { refuse("setZeroShutterLagEnabled:", "zeroShutterLagSupported is NO") } }
    }

    /// Whether a new capture may start while earlier ones are processed (iOS 17): false.
    public var isResponsiveCaptureSupported: Bool { false }

    /// Always false; true raises, as iOS does when `isResponsiveCaptureSupported` is false.
    public var isResponsiveCaptureEnabled: Bool {
        get { false }
        set { if newValue { refuse("setResponsiveCaptureEnabled:", "responsiveCaptureSupported is NO") } }
    }

    /// Whether quality is lowered automatically during bursts of captures (iOS 17): false.
    public var isFastCapturePrioritizationSupported: Bool { false }

    /// Always false; true raises, as iOS does when `isFastCapturePrioritizationSupported` is false.
    public var isFastCapturePrioritizationEnabled: Bool {
        get { false }
        set { if newValue { refuse("setFastCapturePrioritizationEnabled:", "fastCapturePrioritizationSupported is NO") } }
    }
}
