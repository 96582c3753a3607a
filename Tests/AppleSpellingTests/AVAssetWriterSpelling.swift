// AVAssetWriter.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the asset writer declarations; compiled, never called.
func spellAVAssetWriter(_ url: URL, _ input: AVAssetWriterInput) async throws {
    let writer: AVAssetWriter = try AVAssetWriter(outputURL: url, fileType: .mov)
    let outputURL: URL = writer.outputURL
    let fileType: AVFileType = writer.outputFileType
    let types: [AVMediaType] = writer.availableMediaTypes
    let status: AVAssetWriter.Status = writer.status
    let error: (any Error)? = writer.error
    writer.metadata = [AVMutableMetadataItem()]
    writer.shouldOptimizeForNetworkUse = true
    writer.movieFragmentInterval = CMTime(value: 10, timescale: 1)
    writer.initialMovieFragmentSequenceNumber = 1
    writer.overallDurationHint = .invalid
    writer.movieTimeScale = 600
    writer.directoryForTemporaryFiles = nil
    let applies: Bool = writer.canApply(outputSettings: nil, forMediaType: .audio)
    let adds: Bool = writer.canAdd(input)
    writer.add(input)
    let inputs: [AVAssetWriterInput] = writer.inputs
    let started: Bool = writer.startWriting()
    writer.startSession(atSourceTime: .zero)
    writer.endSession(atSourceTime: CMTime(value: 1, timescale: 1))
    writer.finishWriting(completionHandler: {})
    await writer.finishWriting()
    writer.cancelWriting()
    let all: [AVAssetWriter.Status] = [.unknown, .writing, .completed, .failed, .cancelled]
    let fileTypes: [AVFileType] = [
        .mov, .mp4, .m4v, .m4a, .heic, .heif, .avci, .jpg, .dng, .tif, .mobile3GPP, .mobile3GPP2, .caf, .wav, .aiff, .aifc, .amr,
        .mp3, .au, .ac3, .eac3,
    ]
    _ = (outputURL, fileType, types, status, error, applies, adds, inputs, started, all, fileTypes)
}

@Suite("AVAssetWriter.h spelling")
struct AVAssetWriterSpellingTests {
    @Test func statusRawValuesAreApples() {
        #expect([AVAssetWriter.Status.unknown, .writing, .completed, .failed, .cancelled].map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    @Test func newWriterIsUnknownWithoutError() throws {
        let writer = try AVAssetWriter(outputURL: URL(fileURLWithPath: "/tmp/never-written.mov"), fileType: .mov)
        #expect(writer.status == .unknown && writer.error == nil && writer.inputs.isEmpty)
        #expect(!writer.movieFragmentInterval.isValid, "kCMTimeInvalid by default: not fragmented")
        #expect(writer.initialMovieFragmentSequenceNumber == 1)
    }
}
