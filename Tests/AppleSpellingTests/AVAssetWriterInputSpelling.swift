// AVAssetWriterInput.h (and the pixel buffer adaptor), spelled as iOS code spells them.
import AVFoundation
import Testing

/// Touches the asset writer input declarations; compiled, never called.
func spellAVAssetWriterInput(_ sampleBuffer: CMSampleBuffer, _ pixelBuffer: CVPixelBuffer, _ hint: CMFormatDescription?) {
    let settings: [String: Any] = [
        AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 1920, AVVideoHeightKey: 1080,
        AVVideoScalingModeKey: AVVideoScalingModeResizeAspectFill,
        AVVideoCompressionPropertiesKey: [
            AVVideoAverageBitRateKey: 10_000_000, AVVideoProfileLevelKey: AVVideoProfileLevelH264HighAutoLevel,
            AVVideoMaxKeyFrameIntervalKey: 30, AVVideoMaxKeyFrameIntervalDurationKey: 1, AVVideoExpectedSourceFrameRateKey: 30,
            AVVideoAllowFrameReorderingKey: false, AVVideoAverageNonDroppableFrameRateKey: 30,
        ],
    ]
    let levels: [String] = [
        AVVideoProfileLevelH264Baseline30, AVVideoProfileLevelH264Baseline31, AVVideoProfileLevelH264Baseline41,
        AVVideoProfileLevelH264BaselineAutoLevel, AVVideoProfileLevelH264Main30, AVVideoProfileLevelH264Main31,
        AVVideoProfileLevelH264Main32, AVVideoProfileLevelH264Main41, AVVideoProfileLevelH264MainAutoLevel,
        AVVideoProfileLevelH264High40, AVVideoProfileLevelH264High41, AVVideoProfileLevelH264HighAutoLevel,
        AVVideoScalingModeFit, AVVideoScalingModeResize, AVVideoScalingModeResizeAspect,
    ]
    let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
    let hinted = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: hint)
    let mediaType: AVMediaType = input.mediaType
    let output: [String: Any]? = input.outputSettings
    let format: CMFormatDescription? = hinted.sourceFormatHint
    input.expectsMediaDataInRealTime = true
    input.transform = CGAffineTransform(rotationAngle: .pi / 2)
    input.mediaTimeScale = 600
    input.metadata = []
    input.naturalSize = CGSize(width: 1920, height: 1080)
    input.languageCode = "eng"
    input.extendedLanguageTag = "en-US"
    input.marksOutputTrackAsEnabled = true
    input.preferredVolume = 1
    input.performsMultiPassEncodingIfSupported = false
    let multiPass: Bool = input.canPerformMultiplePasses
    let ready: Bool = input.isReadyForMoreMediaData
    input.requestMediaDataWhenReady(on: DispatchQueue(label: "writer")) {}
    let appended: Bool = input.append(sampleBuffer)
    input.markAsFinished()
    let adaptor = AVAssetWriterInputPixelBufferAdaptor(
        assetWriterInput: input, sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
    let owner: AVAssetWriterInput = adaptor.assetWriterInput
    let attributes: [String: Any]? = adaptor.sourcePixelBufferAttributes
    let pool: CVPixelBufferPool? = adaptor.pixelBufferPool
    let adapted: Bool = adaptor.append(pixelBuffer, withPresentationTime: .zero)
    _ = (levels, mediaType, output, format, multiPass, ready, appended, owner, attributes, pool, adapted)
}

@Suite("AVAssetWriterInput.h spelling")
struct AVAssetWriterInputSpellingTests {
    @Test func keysHaveApplesValues() {
        #expect(AVVideoAverageBitRateKey == "AverageBitRate" && AVVideoProfileLevelKey == "ProfileLevel")
        #expect(AVVideoMaxKeyFrameIntervalKey == "MaxKeyFrameInterval" && AVVideoExpectedSourceFrameRateKey == "ExpectedFrameRate")
        #expect(AVVideoProfileLevelH264HighAutoLevel == "H264_High_AutoLevel")
    }

    @Test func inputBeforeAWriterIsNotReady() {
        let input = AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])
        #expect(!input.isReadyForMoreMediaData)
        #expect(input.transform == .identity && input.mediaTimeScale == 0)
    }
}

/// A timed-metadata input, its adaptor and its association with the video track; compiled, never called.
func spellAVAssetWriterInputMetadataAdaptor(_ writer: AVAssetWriter, _ video: AVAssetWriterInput, _ group: AVTimedMetadataGroup) {
    let input = AVAssetWriterInput(mediaType: .metadata, outputSettings: nil, sourceFormatHint: group.copyFormatDescription())
    let adaptor = AVAssetWriterInputMetadataAdaptor(assetWriterInput: input)
    let same: AVAssetWriterInput = adaptor.assetWriterInput
    if writer.canAdd(input) { writer.add(input) }
    let type: String = AVAssetTrack.AssociationType.metadataReferent.rawValue
    if input.canAddTrackAssociation(withTrackOf: video, type: type) { input.addTrackAssociation(withTrackOf: video, type: type) }
    let appended: Bool = adaptor.append(group)
    let others: [AVAssetTrack.AssociationType] = [.audioFallback, .chapterList, .forcedSubtitlesOnly, .selectionFollower, .timecode]
    _ = (same, appended, others)
}
