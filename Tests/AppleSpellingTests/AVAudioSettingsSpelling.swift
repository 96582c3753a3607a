// AVAudioSettings.h's keys and values as recording code writes them for an asset writer.
import AVFoundation
import Foundation

/// Touches the audio settings declarations; compiled, never called.
func spellAVAudioSettings() -> [[String: Any]] {
    let aac: [String: Any] = [
        AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2,
        AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue, AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_LongTermAverage,
        AVEncoderBitRateKey: 128_000,
    ]
    let variable: [String: Any] = [
        AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1,
        AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Variable, AVEncoderAudioQualityForVBRKey: AVAudioQuality.medium.rawValue,
    ]
    let converter: [String: Any] = [
        AVSampleRateConverterAudioQualityKey: AVAudioQuality.max.rawValue, AVSampleRateConverterAlgorithmKey: AVSampleRateConverterAlgorithm_Normal,
        AVEncoderBitDepthHintKey: 16, AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_VariableConstrained,
    ]
    let qualities: [AVAudioQuality] = [.min, .low, .medium, .high, .max]
    _ = (AVSampleRateConverterAlgorithm_Mastering, AVSampleRateConverterAlgorithm_MinimumPhase, AVAudioBitRateStrategy_Constant, qualities)
    return [aac, variable, converter]
}
