// The audio settings keys of AVFAudio's AVAudioSettings.h that capture code passes around
// (`recommendedAudioSettingsForAssetWriter(writingTo:)`), with Apple's string values.

/// The format ID (`Int`, e.g. `kAudioFormatMPEG4AAC`).
public let AVFormatIDKey = "AVFormatIDKey"
/// The sample rate in hertz (`Double`).
public let AVSampleRateKey = "AVSampleRateKey"
/// The channel count (`Int`).
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
/// Bits per linear PCM sample (`Int`).
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
/// Whether linear PCM is big endian (`Bool`).
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
/// Whether linear PCM samples are floats (`Bool`).
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
/// Whether linear PCM is non-interleaved (`Bool`).
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
/// The encoder's bit rate (`Int`, bits per second).
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
/// The encoder's bit rate per channel (`Int`, bits per second).
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
/// How the encoder spends bits (`String`, e.g. `AVAudioBitRateStrategy_Variable`).
public let AVEncoderBitRateStrategyKey = "AVEncoderBitRateStrategyKey"
/// A variable bit rate.
public let AVAudioBitRateStrategy_Variable = "AVAudioBitRateStrategy_Variable"
/// A constant bit rate.
public let AVAudioBitRateStrategy_Constant = "AVAudioBitRateStrategy_Constant"
/// An average bit rate over the long term.
public let AVAudioBitRateStrategy_LongTermAverage = "AVAudioBitRateStrategy_LongTermAverage"
/// A variable bit rate held under a limit.
public let AVAudioBitRateStrategy_VariableConstrained = "AVAudioBitRateStrategy_VariableConstrained"
/// The encoder's quality (`AVAudioQuality` raw value): how hard it searches for the best
/// coding. The asset writer's AAC encoder runs FFmpeg's quicker coder for `.min` and `.low`.
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
/// The quality of variable-bit-rate encoding (`AVAudioQuality` raw value). With
/// `AVEncoderBitRateStrategyKey` `AVAudioBitRateStrategy_Variable` and no bit rate given,
/// the asset writer encodes AAC at that quality instead of an average bit rate.
public let AVEncoderAudioQualityForVBRKey = "AVEncoderAudioQualityForVBRKey"
/// The bit depth the source had (`Int`, 8 ... 32), a hint for lossless encoders.
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
/// The sample-rate converter's quality (`AVAudioQuality` raw value). It applies when audio
/// is resampled; the asset writer never resamples (appended audio must have the track's
/// rate), so it has nothing to act on.
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"
/// The sample-rate converter's algorithm; like its quality, used only when resampling.
public let AVSampleRateConverterAlgorithmKey = "AVSampleRateConverterAlgorithmKey"
/// The usual algorithm.
public let AVSampleRateConverterAlgorithm_Normal = "AVSampleRateConverterAlgorithm_Normal"
/// The algorithm for mastering (slower, better).
public let AVSampleRateConverterAlgorithm_Mastering = "AVSampleRateConverterAlgorithm_Mastering"
/// A minimum-phase algorithm.
public let AVSampleRateConverterAlgorithm_MinimumPhase = "AVSampleRateConverterAlgorithm_MinimumPhase"

/// How hard an audio encoder or converter works (AVAudioSettings.h).
public enum AVAudioQuality: Int, Sendable, Hashable {
    case min = 0
    case low = 0x20
    case medium = 0x40
    case high = 0x60
    case max = 0x7F
}
/// The channel layout (`Data` of an `AudioChannelLayout`).
public let AVChannelLayoutKey = "AVChannelLayoutKey"
