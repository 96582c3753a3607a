import Foundation

/// The app's audio settings beyond one session (iOS 17): record permission and input mute.
///
/// Linux has no consent prompt: the permission is `AVAudioSession`'s (`.granted` unless a
/// sound card's node exists that this process may not open). Muting the input is this
/// process's own switch: while `isInputMuted` is true every microphone's samples reach the
/// outputs as zeros (the level meters read silence), as iOS delivers silence to a muted app.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    private static let instance = AVAudioApplication()
    private let muted = Mutex(false)

    private override init() { super.init() }

    /// The app's one instance.
    open class var shared: AVAudioApplication { instance }

    /// Whether the user allowed recording (Apple's Swift name of the type is lowercase).
    public enum recordPermission: Int, Sendable {
        case undetermined = 1_970_168_948  // 'undt'
        case denied = 1_684_369_017  // 'deny'
        case granted = 1_735_552_628  // 'grnt'
    }

    /// The app's permission to record.
    open var recordPermission: AVAudioApplication.recordPermission {
        AVCaptureDevice.authorizationStatus(for: .audio) == .authorized ? .granted : .denied
    }

    /// Asks for permission to record; `response` runs on an arbitrary queue with the answer.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        let granted = shared.recordPermission == .granted
        DispatchQueue.global().async { response(granted) }
    }

    /// Asks for permission to record and returns the answer.
    open class func requestRecordPermission() async -> Bool {
        await withCheckedContinuation { continuation in
            requestRecordPermission { continuation.resume(returning: $0) }
        }
    }

    /// Whether the app's input is muted.
    open var isInputMuted: Bool { muted.withLock { $0 } }

    /// Mutes or unmutes the app's input (see the type's notes).
    open func setInputMuted(_ muted: Bool) throws {
        let changed = self.muted.withLock { old in
            defer { old = muted }
            return old != muted
        }
        if changed { postOnMainQueue(Self.inputMuteStateChangeNotification, object: self, userInfo: [Self.muteStateKey: NSNumber(value: muted)]) }
    }

    /// Posted (main queue) when the input mute changes.
    public static let inputMuteStateChangeNotification = Notification.Name("AVAudioApplicationInputMuteStateChangeNotification")
    /// userInfo key of `inputMuteStateChangeNotification`: the new state (`NSNumber`, Bool).
    public static let muteStateKey = "AVAudioApplicationMuteStateKey"
}
