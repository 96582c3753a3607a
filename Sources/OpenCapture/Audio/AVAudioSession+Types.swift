import Foundation

// AVAudioSessionTypes.h: categories, modes, ports, options and the notifications' keys,
// with Apple's Swift names and raw values.

extension AVAudioSession {
    /// A broad set of audio behaviours (AVAudioSessionCategory).
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        @available(*, deprecated, message: "No longer supported")
        public static let audioProcessing = Category(rawValue: "AVAudioSessionCategoryAudioProcessing")
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")

        /// Whether the category records (its route has inputs).
        var hasInput: Bool { self == .record || self == .playAndRecord || self == .multiRoute }
    }

    /// A refinement of the category for one use of audio (AVAudioSessionMode).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }

    /// A kind of audio input or output (AVAudioSessionPort).
    public struct Port: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let lineIn = Port(rawValue: "LineIn")
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        public static let lineOut = Port(rawValue: "LineOut")
        public static let headphones = Port(rawValue: "Headphones")
        public static let builtInReceiver = Port(rawValue: "Receiver")
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        public static let HDMI = Port(rawValue: "HDMI")
        public static let usbAudio = Port(rawValue: "USBAudio")
        public static let virtual = Port(rawValue: "Virtual")
        public static let PCI = Port(rawValue: "PCI")
    }

    /// Customisations of a category (AVAudioSessionCategoryOptions).
    public struct CategoryOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    /// Options of `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// Whether the user allowed recording (deprecated for `AVAudioApplication.recordPermission`).
    public enum RecordPermission: UInt, Sendable {
        case undetermined = 1_970_168_948  // 'undt'
        case denied = 1_684_369_017  // 'deny'
        case granted = 1_735_552_628  // 'grnt'
    }

    /// `overrideOutputAudioPort(_:)`'s choices.
    public enum PortOverride: UInt, Sendable {
        case none = 0
        case speaker = 1_936_747_378  // 'spkr'
    }

    /// Why the route changed (`AVAudioSessionRouteChangeReasonKey`).
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// Whether an interruption began or ended (`AVAudioSessionInterruptionTypeKey`).
    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    /// `AVAudioSessionInterruptionOptionKey`'s values.
    public struct InterruptionOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// Why the session was interrupted (`AVAudioSessionInterruptionReasonKey`).
    public enum InterruptionReason: UInt, Sendable {
        case `default` = 0
        @available(*, deprecated, message: "wasSuspended reason no longer present")
        case appWasSuspended = 1
        case builtInMicMuted = 2
        case routeDisconnected = 4
    }

    /// `setAggregatedIOPreference(_:)`'s choices.
    public enum IOType: UInt, Sendable {
        case notSpecified = 0
        case aggregated = 1
    }

    /// The codes of the session's errors (NSOSStatusErrorDomain).
    public enum ErrorCode: Int, Sendable {
        case none = 0
        case mediaServicesFailed = 1_836_282_486  // 'msrv'
        case isBusy = 560_030_580  // '!act'
        case incompatibleCategory = 560_161_140  // '!cat'
        case cannotInterruptOthers = 560_557_684  // '!int'
        case missingEntitlement = 1_701_737_535  // 'ent?'
        case siriIsRecording = 1_936_290_409  // 'siri'
        case cannotStartPlaying = 561_015_905  // '!pla'
        case cannotStartRecording = 561_145_187  // '!rec'
        case badParam = -50
        case insufficientPriority = 561_017_449  // '!pri'
        case resourceNotAvailable = 561_145_203  // '!res'
        case unspecified = 2_003_329_396  // 'what'
        case expiredSession = 561_210_739  // '!ses'
        case sessionNotActive = 1_768_841_571  // 'inac'
    }

    /// Posted when the session is interrupted or the interruption ends.
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the audio route changes (an input appears or goes, the category changes).
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the media server is lost (never on Linux: there is none).
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
    /// Posted when the media server restarts (never on Linux).
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// Posted when another app's primary audio starts or stops (never on Linux: no system audio policy).
    public static let silenceSecondaryAudioHintNotification = Notification.Name("AVAudioSessionSilenceSecondaryAudioHintNotification")
}

/// userInfo key of `interruptionNotification`: the `InterruptionType` raw value.
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// userInfo key of `interruptionNotification` (type ended): `InterruptionOptions` raw value.
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// userInfo key of `interruptionNotification` (type began): the `InterruptionReason` raw value.
public let AVAudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
/// userInfo key of `routeChangeNotification`: the `RouteChangeReason` raw value.
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// userInfo key of `routeChangeNotification`: the route before the change.
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
