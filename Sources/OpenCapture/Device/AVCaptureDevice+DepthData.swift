import Foundation

/// Depth delivery from the device (iOS 11/12), answered as an iPhone camera without a depth
/// sensor: no format lists a depth format (`supportedDepthDataFormats` is empty), so
/// `activeDepthDataFormat` is nil, and setting anything but nil raises
/// `NSInvalidArgumentException`; `activeDepthDataMinFrameDuration` is `.invalid`, and
/// setting any other value raises `NSRangeException` (out of the depth format's range, as
/// there is none). Both setters need the configuration lock (`NSGenericException`), as on
/// iOS.
extension AVCaptureDevice {
    var activeDepthDataFormatBacking: AVCaptureDevice.Format? {
        get { nil }
        set { enforce { try setActiveDepthDataFormat(newValue) } }
    }

    /// The checked form of setting `activeDepthDataFormat` (Linux addition).
    public func setActiveDepthDataFormat(_ format: AVCaptureDevice.Format?) throws(AVCaptureException) {
        try changeProperty(
            "setActiveDepthDataFormat:", supported: format.map { activeFormat.supportedDepthDataFormats.contains($0) } ?? true,
            unsupported: "Unsupported format \(format.map { "\($0)" } ?? "nil") - use activeFormat.supportedDepthDataFormats (empty: this device has no depth formats)"
        ) { nil }
    }

    var activeDepthDataMinFrameDurationBacking: CMTime {
        get { .invalid }
        set { enforce { try setActiveDepthDataMinFrameDuration(newValue) } }
    }

    /// The checked form of setting `activeDepthDataMinFrameDuration` (Linux addition).
    /// `.invalid` restores the default and is always accepted (with the lock).
    public func setActiveDepthDataMinFrameDuration(_ duration: CMTime) throws(AVCaptureException) {
        let selector = "setActiveDepthDataMinFrameDuration:"
        try changeProperty(selector) { () throws(AVCaptureException) -> ControlChange? in
            guard !duration.isValid else {
                throw AVCaptureException(.range, selectorReason(
                    "AVCaptureDevice", selector, "activeDepthDataMinFrameDuration \(duration.seconds) is out of range - there is no activeDepthDataFormat"))
            }
            return nil
        }
    }
}

extension AVCaptureDevice.Format {
    @available(*, deprecated, renamed: "supportedVideoZoomFactorsForDepthDataDelivery")
    var videoMinZoomFactorForDepthDataDeliveryBacking: CGFloat { 1 }

    @available(*, deprecated, renamed: "supportedVideoZoomFactorsForDepthDataDelivery")
    var videoMaxZoomFactorForDepthDataDeliveryBacking: CGFloat { videoMaxZoomFactor }
}
