extension AVCaptureSession {
    /// A quality level or size for a session's output. Raw values are Apple's constant names.
    public struct Preset: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Full-resolution photos (4032x3024 on the simulated cameras).
        public static let photo = Preset(rawValue: "AVCaptureSessionPresetPhoto")
        /// High quality video: 1920x1080 on the simulated cameras. The default.
        public static let high = Preset(rawValue: "AVCaptureSessionPresetHigh")
        /// Medium quality, for sharing over Wi-Fi: 480x360.
        public static let medium = Preset(rawValue: "AVCaptureSessionPresetMedium")
        /// Low quality, for sharing over 3G: 192x144.
        public static let low = Preset(rawValue: "AVCaptureSessionPresetLow")
        /// 352x288 (CIF).
        public static let cif352x288 = Preset(rawValue: "AVCaptureSessionPreset352x288")
        /// 640x480 (VGA).
        public static let vga640x480 = Preset(rawValue: "AVCaptureSessionPreset640x480")
        /// 1280x720.
        public static let hd1280x720 = Preset(rawValue: "AVCaptureSessionPreset1280x720")
        /// 1920x1080.
        public static let hd1920x1080 = Preset(rawValue: "AVCaptureSessionPreset1920x1080")
        /// 3840x2160.
        public static let hd4K3840x2160 = Preset(rawValue: "AVCaptureSessionPreset3840x2160")
        /// 960x540 iFrame.
        public static let iFrame960x540 = Preset(rawValue: "AVCaptureSessionPresetiFrame960x540")
        /// 1280x720 iFrame.
        public static let iFrame1280x720 = Preset(rawValue: "AVCaptureSessionPresetiFrame1280x720")
        /// The device's `activeFormat` decides; set when the app sets a format itself.
        public static let inputPriority = Preset(rawValue: "AVCaptureSessionPresetInputPriority")

        /// Every iOS preset.
        public static let allPresets: [Preset] = [
            .photo, .high, .medium, .low, .cif352x288, .vga640x480, .hd1280x720, .hd1920x1080, .hd4K3840x2160,
            .iFrame960x540, .iFrame1280x720, .inputPriority,
        ]
    }

    /// Why a session was interrupted.
    public enum InterruptionReason: Int, Sendable {
        case videoDeviceNotAvailableInBackground = 1
        case audioDeviceInUseByAnotherClient = 2
        case videoDeviceInUseByAnotherClient = 3
        case videoDeviceNotAvailableWithMultipleForegroundApps = 4
        case videoDeviceNotAvailableDueToSystemPressure = 5
        /// A sensitive-content analyzer stopped the stream (iOS 26): never posted on Linux,
        /// which has no `SCVideoStreamAnalyzer`.
        case sensitiveContentMitigationActivated = 6
    }

    /// Posted when the session fails while running; userInfo[AVCaptureSessionErrorKey] holds the error.
    public static let runtimeErrorNotification = NSNotification.Name.AVCaptureSessionRuntimeError
    /// Posted when the session starts running.
    public static let didStartRunningNotification = NSNotification.Name.AVCaptureSessionDidStartRunning
    /// Posted when the session stops running.
    public static let didStopRunningNotification = NSNotification.Name.AVCaptureSessionDidStopRunning
    /// Posted when the session is interrupted.
    public static let wasInterruptedNotification = NSNotification.Name.AVCaptureSessionWasInterrupted
    /// Posted when an interruption ends.
    public static let interruptionEndedNotification = NSNotification.Name.AVCaptureSessionInterruptionEnded
}

import Foundation

extension AVCaptureDevice {
    /// Posted when a device is connected (iOS 18 name).
    public static let wasConnectedNotification = NSNotification.Name.AVCaptureDeviceWasConnected
    /// Posted when a device is disconnected (iOS 18 name).
    public static let wasDisconnectedNotification = NSNotification.Name.AVCaptureDeviceWasDisconnected
    /// Posted when the subject area changes substantially (iOS 18 name).
    public static let subjectAreaDidChangeNotification = NSNotification.Name.AVCaptureDeviceSubjectAreaDidChange
}
