/// What kind of input a microphone is, as `AVAudioSession.Port` names them.
package enum AudioPortKind: Sendable, Equatable {
    /// The system's own input (a phone's built-in microphone; ALSA's `default`).
    case builtInMicrophone
    /// A software device (ALSA's Loopback or Dummy cards).
    case virtual
    case usb
    case pci
    /// Anything else plugged in (an on-board codec's line input).
    case lineIn
}

/// Microphones that describe their audio port and buffer size (the ALSA and simulated
/// ones), for `AVAudioSession`'s route and hardware values.
///
/// Threads: any.
package protocol AudioPortDescribing: AnyObject, Sendable {
    /// The port kind the route reports.
    var audioPortKind: AudioPortKind { get }
    /// Frames in one delivered buffer (`AVAudioSession.ioBufferDuration` is this over the rate).
    var framesPerBuffer: Int { get }
}
