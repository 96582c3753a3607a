// AVAssetExportSession.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the export-session declarations; compiled, never called.
func spellAVAssetExportSession(_ asset: AVAsset, _ url: URL) async throws {
    let presets: [String] = [
        AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality, AVAssetExportPresetHighestQuality, AVAssetExportPresetHEVCHighestQuality,
        AVAssetExportPresetHEVCHighestQualityWithAlpha, AVAssetExportPreset640x480, AVAssetExportPreset960x540, AVAssetExportPreset1280x720,
        AVAssetExportPreset1920x1080, AVAssetExportPreset3840x2160, AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC1920x1080WithAlpha,
        AVAssetExportPresetHEVC3840x2160, AVAssetExportPresetHEVC3840x2160WithAlpha, AVAssetExportPresetMVHEVC960x960, AVAssetExportPresetMVHEVC1440x1440,
        AVAssetExportPresetAppleM4A, AVAssetExportPresetPassthrough, AVAssetExportPresetAppleProRes422LPCM, AVAssetExportPresetAppleProRes4444LPCM,
    ]
    guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough) else { return }
    let name: String = session.presetName
    let source: AVAsset = session.asset
    session.outputFileType = .mov
    let type: AVFileType? = session.outputFileType
    session.outputURL = url
    let output: URL? = session.outputURL
    session.shouldOptimizeForNetworkUse = true
    let optimize: Bool = session.shouldOptimizeForNetworkUse
    let status: AVAssetExportSession.Status = session.status
    let error: (any Error)? = session.error
    let progress: Float = session.progress
    session.exportAsynchronously {}
    session.cancelExport()
    await session.export()
    try await session.export(to: url, as: .mp4)
    let all: [String] = AVAssetExportSession.allExportPresets()
    let compatible: [String] = AVAssetExportSession.exportPresets(compatibleWith: asset)
    AVAssetExportSession.determineCompatibility(ofExportPreset: AVAssetExportPreset1280x720, with: asset, outputFileType: .mp4) { (ok: Bool) in _ = ok }
    let ok: Bool = await AVAssetExportSession.compatibility(ofExportPreset: AVAssetExportPresetAppleM4A, with: asset, outputFileType: nil)
    let types: [AVFileType] = session.supportedFileTypes
    session.determineCompatibleFileTypes { (types: [AVFileType]) in _ = types }
    let compatibleTypes: [AVFileType] = await session.compatibleFileTypes
    session.timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
    let range: CMTimeRange = session.timeRange
    let maximum: CMTime = session.maxDuration
    session.fileLengthLimit = 1_000_000
    let limit: Int64 = session.fileLengthLimit
    session.metadata = nil
    let items: [AVMetadataItem]? = session.metadata
    session.audioTimePitchAlgorithm = .spectral
    let pitch: AVAudioTimePitchAlgorithm = session.audioTimePitchAlgorithm
    session.canPerformMultiplePassesOverSourceMediaData = false
    let passes: Bool = session.canPerformMultiplePassesOverSourceMediaData
    session.directoryForTemporaryFiles = nil
    let directory: URL? = session.directoryForTemporaryFiles
    let states: [AVAssetExportSession.Status] = [.unknown, .waiting, .exporting, .completed, .failed, .cancelled]
    _ = (presets, name, source, type, output, optimize, status, error, progress, all, compatible, ok, types, compatibleTypes, range, maximum, limit, items)
    _ = (pitch, passes, directory, states)
}

@Suite("AVAssetExportSession.h spelling")
struct AVAssetExportSessionSpellingTests {
    @Test func statusRawValues() {
        #expect(AVAssetExportSession.Status.unknown.rawValue == 0)
        #expect(AVAssetExportSession.Status.waiting.rawValue == 1)
        #expect(AVAssetExportSession.Status.cancelled.rawValue == 5)
    }

    @Test func presetNames() {
        #expect(AVAssetExportPresetPassthrough == "AVAssetExportPresetPassthrough")
        #expect(AVAssetExportPreset1280x720 == "AVAssetExportPreset1280x720")
        #expect(!AVAssetExportSession.allExportPresets().contains(AVAssetExportPresetPassthrough), "not listed, as the header says")
    }
}
