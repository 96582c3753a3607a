import Foundation

/// The volume of audio tracks over time, applied where audio is mixed: an export
/// (`AVAssetExportSession.audioMix`) and an asset reader's mix output
/// (`AVAssetReaderAudioMixOutput.audioMix`), which scale the PCM samples by it. Tracks
/// without input parameters are mixed at volume 1.
///
/// Threads: every property may be used from any thread.
open class AVAudioMix: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let storedParameters = Mutex<[AVAudioMixInputParameters]>([])

    public override init() { super.init() }

    /// The parameters of the mix's inputs, one per track that is not at volume 1.
    open var inputParameters: [AVAudioMixInputParameters] { storedParameters.withLock { $0 } }

    /// An immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = AVAudioMix()
        let copies = UncheckedSendable(inputParameters.map { $0.copy() as! AVAudioMixInputParameters })
        copy.storedParameters.withLock { $0 = copies.value }
        return copy
    }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = AVMutableAudioMix()
        copy.inputParameters = inputParameters
        return copy
    }

    /// The volume curve of a track, nil when the mix has none for it (volume 1).
    func volumeCurve(forTrackID trackID: CMPersistentTrackID) -> AudioVolumeCurve? {
        inputParameters.first { $0.trackID == trackID }.map(\.curve)
    }
}

/// An audio mix whose input parameters can be set.
open class AVMutableAudioMix: AVAudioMix, @unchecked Sendable {
    public override init() { super.init() }

    /// The parameters of the mix's inputs; set copies them, as Apple's `copy` property.
    open override var inputParameters: [AVAudioMixInputParameters] {
        get { super.inputParameters }
        set {
            let copies = UncheckedSendable(newValue.map { $0.copy() as! AVAudioMixInputParameters })
            storedParameters.withLock { $0 = copies.value }
        }
    }
}
