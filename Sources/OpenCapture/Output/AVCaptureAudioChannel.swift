import Foundation

/// The levels of one channel of audio in a connection, as iOS meters it: poll
/// `averagePowerLevel` and `peakHoldLevel` from any thread.
///
/// OpenCapture's meter (iOS does not document its own): the average is the RMS of the
/// newest buffer, the peak hold the highest sample magnitude of the buffers of the last
/// second, both in dBFS relative to a full-scale amplitude of 1, −160 for silence (and
/// before any buffer). `volume` and `isEnabled` are macOS-only on Apple platforms and are
/// absent here, as on iOS.
open class AVCaptureAudioChannel: NSObject, @unchecked Sendable {
    private let levels = Mutex<AudioMeter.Level>(AudioMeter.Level(average: -160, peakHold: -160))

    override init() { super.init() }

    /// The average power of the newest buffer, in dB.
    open var averagePowerLevel: Float { levels.withLock { $0.average } }
    /// The highest peak of the last second, in dB.
    open var peakHoldLevel: Float { levels.withLock { $0.peakHold } }

    func record(_ level: AudioMeter.Level) { levels.withLock { $0 = level } }

    /// One channel per channel of each audio port's format.
    static func channels(of ports: [AVCaptureInput.Port]) -> [AVCaptureAudioChannel] {
        ports.filter { $0.mediaType == .audio }.flatMap { port in
            let count = Int(port.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 1)
            return (0..<count).map { _ in AVCaptureAudioChannel() }
        }
    }
}
