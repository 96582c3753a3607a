extension AVCaptureDevice {
    /// Where a camera faces.
    public enum Position: Int, Sendable {
        case unspecified = 0
        case back = 1
        case front = 2
    }

    /// The kind of device. Raw values are Apple's constant names.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        public static let external = DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        public static let continuityCamera = DeviceType(rawValue: "AVCaptureDeviceTypeContinuityCamera")
        /// A distortion-corrected ultra-wide camera looking down at a desk (macOS only: no
        /// Linux device has this type, so discovery never finds one).
        public static let deskViewCamera = DeviceType(rawValue: "AVCaptureDeviceTypeDeskViewCamera")
        /// The built-in microphone (deprecated on iOS 17): a synonym of `microphone` in discovery.
        @available(*, deprecated, renamed: "microphone")
        public static let builtInMicrophone = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")
        /// The first name of `builtInDualCamera` (deprecated on iOS 10.2).
        @available(*, deprecated, renamed: "builtInDualCamera")
        public static let builtInDuoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDuoCamera")
        /// An unknown external device (macOS; deprecated on macOS 14 for `external`).
        @available(*, deprecated, renamed: "external")
        public static let externalUnknown = DeviceType(rawValue: "AVCaptureDeviceTypeExternalUnknown")
    }
}

/// Whether the app may use a kind of device.
public enum AVAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}

/// A colour space a format can capture in.
public enum AVCaptureColorSpace: Int, Sendable {
    case sRGB = 0
    case P3_D65 = 1
    case HLG_BT2020 = 2
    case appleLog = 3
    /// Apple Log 2 (iOS 26): in no format's `supportedColorSpaces` here, as on cameras without it.
    case appleLog2 = 4
}
