// AVAssetReader.h and AVAssetReaderOutput.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the reader declarations; compiled, never called.
func spellAVAssetReader(_ asset: AVAsset, _ track: AVAssetTrack) throws {
    let reader: AVAssetReader = try AVAssetReader(asset: asset)
    let readerAsset: AVAsset = reader.asset
    let status: AVAssetReader.Status = reader.status
    let error: (any Error)? = reader.error
    reader.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
    let range: CMTimeRange = reader.timeRange
    let output = AVAssetReaderTrackOutput(
        track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange])
    let audio = AVAssetReaderTrackOutput(
        track: track,
        outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: false,
                         AVLinearPCMIsNonInterleaved: false])
    let outputTrack: AVAssetTrack = output.track
    let settings: [String: Any]? = output.outputSettings
    output.audioTimePitchAlgorithm = .spectral
    let pitch: AVAudioTimePitchAlgorithm? = audio.audioTimePitchAlgorithm
    output.alwaysCopiesSampleData = false
    let copies: Bool = output.alwaysCopiesSampleData
    output.supportsRandomAccess = false
    let random: Bool = output.supportsRandomAccess
    let mediaType: AVMediaType = output.mediaType
    let adds: Bool = reader.canAdd(output)
    reader.add(output)
    let outputs: [AVAssetReaderOutput] = reader.outputs
    let started: Bool = reader.startReading()
    let sample: CMSampleBuffer? = output.copyNextSampleBuffer()
    reader.cancelReading()
    let all: [AVAssetReader.Status] = [.unknown, .reading, .completed, .failed, .cancelled]
    let algorithms: [AVAudioTimePitchAlgorithm] = [.lowQualityZeroLatency, .timeDomain, .spectral, .varispeed]
    _ = (readerAsset, status, error, range, outputTrack, settings, pitch, copies, random, mediaType, adds, outputs, started, sample, all, algorithms)
}

@Suite("AVAssetReader.h spelling")
struct AVAssetReaderSpellingTests {
    @Test func statusRawValues() {
        #expect(AVAssetReader.Status.unknown.rawValue == 0)
        #expect(AVAssetReader.Status.cancelled.rawValue == 4)
    }

    @Test func unreadableFileFails() throws {
        let reader = try AVAssetReader(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/movie.mov")))
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect(reader.error is AVError)
    }
}

/// Reading a timed-metadata track as groups; compiled, never called.
func spellAVAssetReaderOutputMetadataAdaptor(_ reader: AVAssetReader, _ track: AVAssetTrack) {
    let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
    let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
    let same: AVAssetReaderTrackOutput = adaptor.assetReaderTrackOutput
    if reader.canAdd(output) { reader.add(output) }
    while let group: AVTimedMetadataGroup = adaptor.nextTimedMetadataGroup() {
        for item in group.items { _ = (item.identifier, item.value, item.dataType) }
    }
    if let buffer = output.copyNextSampleBuffer(), let group = AVTimedMetadataGroup(sampleBuffer: buffer) { _ = group.timeRange }
    _ = same
}
