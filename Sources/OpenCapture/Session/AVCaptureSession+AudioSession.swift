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
    var usesApplicationAudioSessionBacking: Bool {
        get { model.withLock { $0.audioSession.usesApplicationAudioSession } }
        set { model.withLock { $0.audioSession.usesApplicationAudioSession = newValue } }
    }

    var automaticallyConfiguresApplicationAudioSessionBacking: Bool {
        get { model.withLock { $0.audioSession.automaticallyConfiguresApplicationAudioSession } }
        set { model.withLock { $0.audioSession.automaticallyConfiguresApplicationAudioSession = newValue } }
    }

    var configuresApplicationAudioSessionToMixWithOthersBacking: Bool {
        get { model.withLock { $0.audioSession.configuresApplicationAudioSessionToMixWithOthers } }
        set { model.withLock { $0.audioSession.configuresApplicationAudioSessionToMixWithOthers = newValue } }
    }

    var configuresApplicationAudioSessionForBluetoothHighQualityRecordingBacking: Bool {
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
