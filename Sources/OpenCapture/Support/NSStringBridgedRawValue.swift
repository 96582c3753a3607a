import Foundation

/// A string-backed API type (Apple's `NS_TYPED_ENUM` and `NS_TYPED_EXTENSIBLE_ENUM`
/// strings: `AVMetadataKey`, `AVFileType`, `AVMediaType`...) that bridges to `NSString` as
/// its Swift overlay does on Apple, so `AVMetadataKey.commonKeyTitle as NSString`, and an
/// `NSString` or `Any` holding one cast back with `as?`, work as in iOS code. Not API of its
/// own: the conformances below are what apps see.
public protocol _NSStringBridgedRawValue: RawRepresentable, _ObjectiveCBridgeable
where RawValue == String, _ObjectiveCType == NSString {
    init(rawValue: String)
}

extension _NSStringBridgedRawValue {
    public func _bridgeToObjectiveC() -> NSString { NSString(string: rawValue) }

    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout Self?) {
        result = Self(rawValue: String(source))
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout Self?) -> Bool {
        result = Self(rawValue: String(source))
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> Self {
        Self(rawValue: source.map { String($0) } ?? "")
    }
}

extension AVMetadataKey: _NSStringBridgedRawValue {}
extension AVMetadataKeySpace: _NSStringBridgedRawValue {}
extension AVMetadataIdentifier: _NSStringBridgedRawValue {}
extension AVMetadataFormat: _NSStringBridgedRawValue {}
extension AVMetadataExtraAttributeKey: _NSStringBridgedRawValue {}
extension AVMetadataObject.ObjectType: _NSStringBridgedRawValue {}
extension AVMediaType: _NSStringBridgedRawValue {}
extension AVMediaCharacteristic: _NSStringBridgedRawValue {}
extension AVFileType: _NSStringBridgedRawValue {}
extension AVVideoCodecType: _NSStringBridgedRawValue {}
extension AVLayerVideoGravity: _NSStringBridgedRawValue {}
extension AVAudioTimePitchAlgorithm: _NSStringBridgedRawValue {}
extension AVCaptureSession.Preset: _NSStringBridgedRawValue {}
extension AVCaptureDevice.DeviceType: _NSStringBridgedRawValue {}
extension AVCaptureSystemPressureState.Level: _NSStringBridgedRawValue {}
extension AVCaptureReactionType: _NSStringBridgedRawValue {}
extension AVSemanticSegmentationMatte.MatteType: _NSStringBridgedRawValue {}
extension AVAssetTrack.AssociationType: _NSStringBridgedRawValue {}
