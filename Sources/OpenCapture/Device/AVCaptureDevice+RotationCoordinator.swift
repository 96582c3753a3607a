import Foundation

extension AVCaptureDevice {
    /// How the camera is held or mounted relative to gravity (Linux addition), as the video
    /// orientation that would show it upright: `.landscapeRight` (the default) is a webcam
    /// standing upright or a phone held in landscape with its top to the left; `.portrait` a
    /// phone held upright. Linux machines have no accelerometer, so it is said, not sensed:
    /// set it for a camera mounted on its side or upside down (or to simulate a phone held
    /// in portrait). `RotationCoordinator` reads it.
    public var physicalOrientation: AVCaptureVideoOrientation {
        get { core.physicalOrientation.withLock { $0 } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["physicalOrientation"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            core.physicalOrientation.withLock { $0 = newValue }
        }
    }

    /// Gives the rotation angles that keep captured and previewed video level with gravity
    /// (iOS 17), from the device's `physicalOrientation`.
    ///
    /// Both angles are key-value observable, as on iOS (`observe(\.videoRotationAngleForHorizonLevelPreview)`):
    /// they change when the device's `physicalOrientation` is set, and notify on that thread.
    open class RotationCoordinator: NSObject, @unchecked Sendable {
        let coordinatorKeyValueObservers = KeyValueObserverRegistry(label: "rotationCoordinator")
        /// Follows the device's orientation while the coordinator lives.
        private var orientationObservation: NSKeyValueObservation?
        private let pendingChange = Mutex<KeyValueChange?>(nil)

        private weak var weakDevice: AVCaptureDevice?
        /// The device whose orientation the coordinator follows.
        open var device: AVCaptureDevice? { weakDevice }
        private weak var weakPreviewLayer: CALayer?
        /// The preview layer the preview angle is for, if any.
        open var previewLayer: CALayer? { weakPreviewLayer }

        /// A coordinator for `device` and, optionally, the layer showing its preview.
        public init(device: AVCaptureDevice, previewLayer: CALayer?) {
            self.weakDevice = device
            self.weakPreviewLayer = previewLayer
            super.init()
            // The angles follow the orientation: read them before it changes (the prior
            // call) and announce those that moved after it.
            orientationObservation = device.observe(\.physicalOrientation, options: [.prior]) { [weak self] _, change in
                guard let self else { return }
                if change.isPrior {
                    let watch = KeyValueChange.watch(self)
                    pendingChange.withLock { $0 = watch }
                } else {
                    let watch = pendingChange.withLock { pending in
                        defer { pending = nil }
                        return pending
                    }
                    watch?.didChange()
                }
            }
        }

        /// The angle to set on capture connections (`videoRotationAngle`) so photos and
        /// movies come out level: 0 for an upright landscape camera, 90 held in portrait.
        open var videoRotationAngleForHorizonLevelCapture: CGFloat {
            device?.physicalOrientation.rotationAngle ?? 0
        }

        /// The angle to set on the preview layer's connection: 0 without a layer, else the
        /// capture angle (a Linux window does not turn with the camera, so nothing else
        /// compensates).
        open var videoRotationAngleForHorizonLevelPreview: CGFloat {
            previewLayer == nil ? 0 : videoRotationAngleForHorizonLevelCapture
        }
    }
}
