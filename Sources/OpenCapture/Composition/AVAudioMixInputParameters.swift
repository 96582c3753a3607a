import Foundation

/// One track's parameters in an audio mix: its volume over time (see `AudioVolumeCurve`
/// for the rules) and a time-pitch algorithm.
///
/// Threads: every property and method may be used from any thread.
open class AVAudioMixInputParameters: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    struct Fields {
        var trackID = kCMPersistentTrackID_Invalid
        var algorithm: AVAudioTimePitchAlgorithm?
        var curve = AudioVolumeCurve()
    }

    let fields = Mutex(Fields())

    public override init() { super.init() }

    /// The track the parameters apply to (`kCMPersistentTrackID_Invalid` unless set).
    open var trackID: CMPersistentTrackID { fields.withLock { $0.trackID } }

    /// The algorithm for scaled audio of this track; nil uses the export's or output's.
    /// Kept only: Linux does not time-stretch (scaled audio edits are refused).
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? { fields.withLock { $0.algorithm } }

    /// The volume curve.
    var curve: AudioVolumeCurve { fields.withLock { $0.curve } }

    /// The ramp that contains `time`, else the first that starts after it: its volumes and
    /// time range (a volume set at a time is a ramp of zero duration). False when `time`
    /// is past the last ramp.
    open func getVolumeRamp(
        for time: CMTime, startVolume: UnsafeMutablePointer<Float>?, endVolume: UnsafeMutablePointer<Float>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        guard let ramp = curve.ramp(for: time) else { return false }
        startVolume?.pointee = ramp.startVolume
        endVolume?.pointee = ramp.endVolume
        timeRange?.pointee = ramp.timeRange
        return true
    }

    /// An immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = AVAudioMixInputParameters()
        let values = fields.withLock { $0 }
        copy.fields.withLock { $0 = values }
        return copy
    }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = AVMutableAudioMixInputParameters()
        let values = fields.withLock { $0 }
        copy.fields.withLock { $0 = values }
        return copy
    }
}

/// Input parameters that can be changed: the track ID, volume ramps and volumes at times.
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters, @unchecked Sendable {
    public override init() { super.init() }

    /// Parameters for `track` (its track ID; `kCMPersistentTrackID_Invalid` for nil), with
    /// no volume ramps.
    public convenience init(track: AVAssetTrack?) {
        self.init()
        fields.withLock { $0.trackID = track?.trackID ?? kCMPersistentTrackID_Invalid }
    }

    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { fields.withLock { $0.trackID = newValue } }
    }

    open override var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { super.audioTimePitchAlgorithm }
        set { fields.withLock { $0.algorithm = newValue } }
    }

    /// Goes linearly from `startVolume` to `endVolume` over `timeRange`, then holds
    /// `endVolume`; replaces the ramps and volumes the range overlaps.
    open func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {
        fields.withLock { $0.curve.add(.init(startVolume: startVolume, endVolume: endVolume, timeRange: timeRange)) }
    }

    /// Sets the volume from `time` on (until the next ramp or volume).
    open func setVolume(_ volume: Float, at time: CMTime) {
        fields.withLock { $0.curve.add(.init(startVolume: volume, endVolume: volume, timeRange: CMTimeRange(start: time, duration: .zero))) }
    }
}
