/// Receives a running microphone's sample buffers on the microphone's capture thread.
///
/// As `FrameSink` for cameras: the capture thread never waits for a consumer, except in
/// virtual time, where it asks `waitUntilReadyForNextAudioBuffer()` so that buffers go as
/// fast as the consumers take them.
package protocol AudioSink: AnyObject, Sendable {
    /// A buffer of audio: linear PCM in the backend's `audioFormat`, stamped on the host clock.
    func backendDidCapture(audio sampleBuffer: CMSampleBuffer)
    /// The stream failed; the backend has stopped.
    func backendDidFail(_ error: BackendError)
    /// The device overran (the capture thread fell a whole hardware buffer behind) and
    /// restarted: about `lost` of sound is missing before the next buffer.
    func backendDidOverrun(lost: CMTime)
    /// Virtual time only: blocks until the consumers can take another buffer, or returns
    /// false when the stream is stopping.
    func waitUntilReadyForNextAudioBuffer() -> Bool
    /// The host time (CLOCK_MONOTONIC nanoseconds) a simulated device should take as its first
    /// instant, so that devices a session starts together share one scene clock; nil for now.
    var streamEpoch: Int64? { get }
}

extension AudioSink {
    package var streamEpoch: Int64? { nil }
}

/// A source of audio: the simulated microphone or an ALSA capture PCM.
///
/// It is a `CaptureBackend` so that devices of both kinds share `AVCaptureDevice`'s
/// machinery; the session never calls the video `start` of one (that throws), it calls
/// `startAudio`. `stop()` ends either.
package protocol AudioCaptureBackend: CaptureBackend {
    /// The format of every buffer the device delivers.
    var audioFormat: CMAudioFormatDescription { get }
    /// Starts streaming to `sink` on a capture thread of the backend's.
    func startAudio(sink: any AudioSink) throws(BackendError)
}
