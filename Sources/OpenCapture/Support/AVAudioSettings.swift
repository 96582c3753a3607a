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
/// The channel layout (`Data` of an `AudioChannelLayout`).
public let AVChannelLayoutKey = "AVChannelLayoutKey"
