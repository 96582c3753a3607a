// AVAudioMix.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the audio mix declarations; compiled, never called.
func spellAVAudioMix(_ track: AVAssetTrack, _ asset: AVAsset, _ session: AVAssetExportSession) throws {
    let parameters = AVMutableAudioMixInputParameters(track: track)
    let empty = AVMutableAudioMixInputParameters()
    parameters.trackID = track.trackID
    parameters.audioTimePitchAlgorithm = .spectral
    parameters.setVolume(0.5, at: .zero)
    parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1)))
    var start: Float = 0
    var end: Float = 0
    var range = CMTimeRange.zero
    let found: Bool = parameters.getVolumeRamp(for: .zero, startVolume: &start, endVolume: &end, timeRange: &range)
    let trackID: CMPersistentTrackID = empty.trackID
    let algorithm: AVAudioTimePitchAlgorithm? = parameters.audioTimePitchAlgorithm
    let mix = AVMutableAudioMix()
    mix.inputParameters = [parameters]
    let inputs: [AVAudioMixInputParameters] = mix.inputParameters
    let frozen = mix.copy() as! AVAudioMix
    let editable = frozen.mutableCopy() as! AVMutableAudioMix
    let readOnly: AVAudioMixInputParameters = parameters.copy() as! AVAudioMixInputParameters
    session.audioMix = mix
    let exportMix: AVAudioMix? = session.audioMix
    let output = AVAssetReaderAudioMixOutput(audioTracks: [track], audioSettings: nil)
    output.audioMix = mix
    output.audioTimePitchAlgorithm = .varispeed
    let tracks: [AVAssetTrack] = output.audioTracks
    let settings: [String: Any]? = output.audioSettings
    let readerMix: AVAudioMix? = output.audioMix
    _ = (found, trackID, algorithm, inputs, editable, readOnly, exportMix, tracks, settings, readerMix, asset)
}

@Suite("AVAudioMix.h spelling")
struct AVAudioMixSpellingTests {
    @Test func newMixHasNoParametersAndCopiesAreIndependent() {
        let mix = AVMutableAudioMix()
        #expect(mix.inputParameters.isEmpty)
        let parameters = AVMutableAudioMixInputParameters()
        parameters.trackID = 2
        mix.inputParameters = [parameters]
        parameters.trackID = 3
        #expect(mix.inputParameters.map(\.trackID) == [2], "the mix keeps a copy, as Apple's copy property")
        #expect(!(mix.inputParameters[0] is AVMutableAudioMixInputParameters))
    }

    @Test func setVolumeIsAZeroLengthRamp() {
        let parameters = AVMutableAudioMixInputParameters()
        parameters.setVolume(0.25, at: CMTime(value: 3, timescale: 1))
        var start: Float = 0
        var end: Float = 0
        var range = CMTimeRange.invalid
        #expect(parameters.getVolumeRamp(for: CMTime(value: 3, timescale: 1), startVolume: &start, endVolume: &end, timeRange: &range))
        #expect(start == 0.25 && end == 0.25 && range == CMTimeRange(start: CMTime(value: 3, timescale: 1), duration: .zero))
    }
}
