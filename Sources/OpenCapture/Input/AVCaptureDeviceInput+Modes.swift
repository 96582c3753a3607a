import Foundation

/// How a built-in microphone records several channels (iOS 18).
public enum AVCaptureMultichannelAudioMode: Int, Sendable, Hashable {
    /// One channel: no multichannel audio.
    case none = 0
    /// Two channels from the built-in microphones.
    case stereo = 1
    /// First-order ambisonics (spatial audio), with a stereo track beside it in movies.
    case firstOrderAmbisonics = 2
}

/// The input's audio and cinematic modes (AVCaptureInput.h, iOS 18 and later).
///
/// Linux has none of the processing behind them: no camera here records Cinematic video, and
/// no microphone does multichannel capture, wind-noise removal or audio zoom (those modes
/// need Apple's built-in microphone arrays). So the answers are those of an iPhone without
/// them: `false` and `.none`, and setting a mode the input does not support raises
/// `NSInvalidArgumentException` as Apple does. Setting the value the input already has
/// (`.none`, `false`) is allowed and changes nothing.
extension AVCaptureDeviceInput {

    /// The checked form of setting `multichannelAudioMode` (Linux addition).
    public func setMultichannelAudioMode(_ mode: AVCaptureMultichannelAudioMode) throws(AVCaptureException) {
        guard isMultichannelAudioModeSupported(mode) else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureDeviceInput", "setMultichannelAudioMode:",
                "Unsupported multichannel audio mode \(mode.rawValue) - use isMultichannelAudioModeSupported:"))
        }
    }

    /// The checked form of setting `isWindNoiseRemovalEnabled` (Linux addition).
    public func setWindNoiseRemovalEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try requireSupported(
            !enabled || isWindNoiseRemovalSupported, "setWindNoiseRemovalEnabled:",
            "Wind noise removal is not supported - use windNoiseRemovalSupported")
    }

    /// The checked form of setting `isCinematicVideoCaptureEnabled` (Linux addition).
    public func setCinematicVideoCaptureEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try requireSupported(
            !enabled || isCinematicVideoCaptureSupported, "setCinematicVideoCaptureEnabled:",
            "Not supported - use isCinematicVideoCaptureSupported")
    }

    /// The checked form of setting `isAudioZoomEnabled` (Linux addition).
    public func setAudioZoomEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try requireSupported(
            !enabled || isAudioZoomSupported, "setAudioZoomEnabled:",
            "Audio zoom is not supported - use audioZoomSupported")
    }

    func requireSupported(_ supported: Bool, _ selector: String, _ text: String) throws(AVCaptureException) {
        guard supported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDeviceInput", selector, text))
        }
    }
}
