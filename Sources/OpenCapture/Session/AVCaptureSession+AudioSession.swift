import Foundation

/// The session's four audio-session settings (Apple's defaults).
struct ApplicationAudioSessionOptions {
    var usesApplicationAudioSession = true
    var automaticallyConfiguresApplicationAudioSession = true
    var configuresApplicationAudioSessionToMixWithOthers = false
    var configuresApplicationAudioSessionForBluetoothHighQualityRecording = false
}

/// How the session treats the app's `AVAudioSession` (AVCaptureSession.h, "Configuring the
/// app's audio session").
///
/// Linux has no system audio policy: no other app's audio is interrupted, ducked or mixed,
/// and the session sets no `AVAudioSession` category, whatever these say. The
/// properties keep Apple's defaults and the values an app sets, and answer Apple's rules
/// through `effectiveApplicationAudioSessionConfiguration` (docs/ARCHITECTURE.md,
/// "Unsupported on Linux").
extension AVCaptureSession {
    /// Whether the session uses the app's shared audio session (default true); false means
    /// a private one on iOS.
    public var usesApplicationAudioSession: Bool {
        get { model.withLock { $0.audioSession.usesApplicationAudioSession } }
        set { model.withLock { $0.audioSession.usesApplicationAudioSession = newValue } }
    }

    /// Whether the session configures the app's shared audio session for recording (default
    /// true). Takes effect only while `usesApplicationAudioSession` is true.
    public var automaticallyConfiguresApplicationAudioSession: Bool {
        get { model.withLock { $0.audioSession.automaticallyConfiguresApplicationAudioSession } }
        set { model.withLock { $0.audioSession.automaticallyConfiguresApplicationAudioSession = newValue } }
    }

    /// Whether the session configures the app's audio session to mix with other apps' audio
    /// (iOS 18; default false). No effect while `usesApplicationAudioSession` is false.
    public var configuresApplicationAudioSessionToMixWithOthers: Bool {
        get { model.withLock { $0.audioSession.configuresApplicationAudioSessionToMixWithOthers } }
        set { model.withLock { $0.audioSession.configuresApplicationAudioSessionToMixWithOthers = newValue } }
    }

    /// Whether the session opts the app's audio session in to Bluetooth high-quality
    /// recording (iOS 26; default false). No effect while `usesApplicationAudioSession` is
    /// false.
    public var configuresApplicationAudioSessionForBluetoothHighQualityRecording: Bool {
        get { model.withLock { $0.audioSession.configuresApplicationAudioSessionForBluetoothHighQualityRecording } }
        set { model.withLock { $0.audioSession.configuresApplicationAudioSessionForBluetoothHighQualityRecording = newValue } }
    }

    /// What the session would ask of the app's audio session under Apple's rules (Linux
    /// addition): `configures` is whether it would set the shared session's category for
    /// recording; all three count only while the shared session is used. Nothing on Linux
    /// acts on it.
    public var effectiveApplicationAudioSessionConfiguration: (configures: Bool, mixesWithOthers: Bool, bluetoothHighQualityRecording: Bool) {
        let options = model.withLock { $0.audioSession }
        guard options.usesApplicationAudioSession else { return (false, false, false) }
        return (options.automaticallyConfiguresApplicationAudioSession,
                options.configuresApplicationAudioSessionToMixWithOthers,
                options.configuresApplicationAudioSessionForBluetoothHighQualityRecording)
    }
}
