import Foundation

/// Microphone modes (iOS 15): the audio processing the user picks in Control Center. No
/// Linux audio route offers voice isolation or wide spectrum, and there is no Control
/// Center to pick one in, so both class properties read `.standard`, the mode of a route
/// without the others (as on an iPhone whose route does not support them). They never
/// change, so observers of them only ever get the `.initial` call.
extension AVCaptureDevice {
    /// The audio processing applied to microphone input.
    public enum MicrophoneMode: Int, Sendable {
        /// The default processing.
        case standard = 0
        /// Processing that keeps as much of the surrounding sound as possible.
        case wideSpectrum = 1
        /// Processing that isolates the voice and attenuates other sound.
        case voiceIsolation = 2
    }

    class var preferredMicrophoneModeBacking: MicrophoneMode { .standard }

    class var activeMicrophoneModeBacking: MicrophoneMode { .standard }
}
