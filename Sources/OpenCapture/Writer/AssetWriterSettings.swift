import CaptureCore
import Foundation
import MediaIO

/// An input's output settings, checked and read into MediaIO's terms (see AVAssetWriterInput).
enum AssetWriterSettings {
    /// Apple's exception for a bad settings dictionary given to `AVAssetWriterInput`'s init.
    static func invalid(_ text: String) -> AVCaptureException {
        AVCaptureException(
            .invalidArgument, selectorReason("AVAssetWriterInput", "initWithMediaType:outputSettings:sourceFormatHint:", text))
    }

    static func double(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as NSNumber: value.doubleValue
        default: integer(value).map(Double.init)
        }
    }

    static func string(_ value: Any?) -> String? {
        switch value {
        case let value as String: value
        case let value as AVVideoCodecType: value.rawValue
        case let value as NSString: value as String
        default: nil
        }
    }

    /// Codecs the writer encodes: HEVC only where FFmpeg has libx265.
    static var videoCodecs: [AVVideoCodecType] { MovieWriter.canEncodeHEVC ? [.hevc, .h264] : [.h264] }

    /// Checks video settings as `AVAssetWriterInput(mediaType: .video, ...)` does.
    static func checkVideo(_ settings: [String: Any], hint: CMFormatDescription?) throws(AVCaptureException) {
        if settings[AVFormatIDKey] != nil { throw invalid("Output settings for media type vide must not contain AVFormatIDKey") }
        guard let codec = string(settings[AVVideoCodecKey]) else {
            throw invalid("Output settings dictionary must contain AVVideoCodecKey")
        }
        guard videoCodecs.map(\.rawValue).contains(codec) else {
            throw invalid("Unsupported value for AVVideoCodecKey: \(codec)")
        }
        if hint == nil {
            guard settings[AVVideoWidthKey] != nil else { throw invalid("Output settings dictionary must contain AVVideoWidthKey") }
            guard settings[AVVideoHeightKey] != nil else { throw invalid("Output settings dictionary must contain AVVideoHeightKey") }
        }
        for key in [AVVideoWidthKey, AVVideoHeightKey] where settings[key] != nil {
            guard let value = integer(settings[key]), value > 0 else { throw invalid("\(key) must be a positive number") }
        }
        if let mode = settings[AVVideoScalingModeKey] {
            guard let mode = string(mode),
                [AVVideoScalingModeResize, AVVideoScalingModeResizeAspect, AVVideoScalingModeResizeAspectFill].contains(mode)
            else { throw invalid("Unsupported value for AVVideoScalingModeKey (AVVideoScalingModeFit is not supported)") }
        }
        if let properties = settings[AVVideoCompressionPropertiesKey], !(properties is [String: Any]) {
            throw invalid("AVVideoCompressionPropertiesKey must be a dictionary")
        }
        if let colour = settings[AVVideoColorPropertiesKey] {
            _ = try colorTags(colour)
        }
        _ = try pixelAspectRatio(settings)
    }

    /// `AVVideoPixelAspectRatioKey`, in the compression properties or the settings: both
    /// spacings, positive; nil when not given.
    static func pixelAspectRatio(_ settings: [String: Any]) throws(AVCaptureException) -> (horizontal: Int32, vertical: Int32)? {
        let properties = settings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        guard let value = properties[AVVideoPixelAspectRatioKey] ?? settings[AVVideoPixelAspectRatioKey] else { return nil }
        guard let ratio = value as? [String: Any] ?? attributeDictionary(value as? NSDictionary),
            let horizontal = integer(ratio[AVVideoPixelAspectRatioHorizontalSpacingKey]), horizontal > 0, horizontal <= Int(Int32.max),
            let vertical = integer(ratio[AVVideoPixelAspectRatioVerticalSpacingKey]), vertical > 0, vertical <= Int(Int32.max)
        else {
            throw invalid("AVVideoPixelAspectRatioKey must be a dictionary of positive AVVideoPixelAspectRatioHorizontalSpacingKey and AVVideoPixelAspectRatioVerticalSpacingKey")
        }
        return (Int32(horizontal), Int32(vertical))
    }

    /// The values each key of `AVVideoColorPropertiesKey` takes (AVVideoSettings.h).
    static let colorValues: [(key: String, values: [String])] = [
        (AVVideoColorPrimariesKey, [
            AVVideoColorPrimaries_ITU_R_709_2, AVVideoColorPrimaries_EBU_3213, AVVideoColorPrimaries_SMPTE_C,
            AVVideoColorPrimaries_P3_D65, AVVideoColorPrimaries_ITU_R_2020,
        ]),
        (AVVideoTransferFunctionKey, [
            AVVideoTransferFunction_ITU_R_709_2, AVVideoTransferFunction_SMPTE_240M_1995, AVVideoTransferFunction_SMPTE_ST_2084_PQ,
            AVVideoTransferFunction_ITU_R_2100_HLG, AVVideoTransferFunction_Linear, AVVideoTransferFunction_IEC_sRGB,
        ]),
        (AVVideoYCbCrMatrixKey, [
            AVVideoYCbCrMatrix_ITU_R_709_2, AVVideoYCbCrMatrix_ITU_R_601_4, AVVideoYCbCrMatrix_SMPTE_240M_1995, AVVideoYCbCrMatrix_ITU_R_2020,
        ]),
    ]

    /// The tags an `AVVideoColorPropertiesKey` value asks for: a dictionary with all three
    /// keys ("you must specify a color primary, transfer function, and Y'CbCr matrix"), each
    /// one of AVVideoSettings.h's values.
    static func colorTags(_ value: Any) throws(AVCaptureException) -> MovieColorTags {
        guard let dictionary = value as? [String: Any] ?? attributeDictionary(value as? NSDictionary) else {
            throw invalid("AVVideoColorPropertiesKey must be a dictionary")
        }
        var chosen: [String] = []
        for (key, values) in colorValues {
            guard let given = dictionary[key] else {
                throw invalid("AVVideoColorPropertiesKey must contain AVVideoColorPrimariesKey, AVVideoTransferFunctionKey and AVVideoYCbCrMatrixKey")
            }
            guard let name = string(given), values.contains(name) else {
                throw invalid("Unsupported value for \(key) in AVVideoColorPropertiesKey: \(given)")
            }
            chosen.append(name)
        }
        return MovieColorTags(primaries: chosen[0], transferFunction: chosen[1], matrix: chosen[2])
    }

    /// Checks audio settings as `AVAssetWriterInput(mediaType: .audio, ...)` does.
    static func checkAudio(_ settings: [String: Any], hint: CMFormatDescription?) throws(AVCaptureException) {
        if settings[AVVideoCodecKey] != nil { throw invalid("Output settings for media type soun must not contain AVVideoCodecKey") }
        guard let format = integer(settings[AVFormatIDKey]) else { throw invalid("Output settings dictionary must contain AVFormatIDKey") }
        guard [kAudioFormatMPEG4AAC, kAudioFormatLinearPCM].contains(AudioFormatID(truncatingIfNeeded: format)) else {
            throw invalid("Unsupported value for AVFormatIDKey (kAudioFormatMPEG4AAC and kAudioFormatLinearPCM are supported)")
        }
        guard hint == nil else { return }
        guard settings[AVSampleRateKey] != nil else { throw invalid("Output settings dictionary must contain AVSampleRateKey") }
        guard let channels = integer(settings[AVNumberOfChannelsKey]) else {
            throw invalid("Output settings dictionary must contain AVNumberOfChannelsKey")
        }
        if channels > 2 && settings[AVChannelLayoutKey] == nil {
            throw invalid("AVNumberOfChannelsKey > 2 requires AVChannelLayoutKey")
        }
        if AudioFormatID(truncatingIfNeeded: format) == kAudioFormatLinearPCM {
            for key in [AVLinearPCMBitDepthKey, AVLinearPCMIsFloatKey, AVLinearPCMIsBigEndianKey, AVLinearPCMIsNonInterleaved]
            where settings[key] == nil {
                throw invalid("Output settings dictionary for kAudioFormatLinearPCM must contain \(key)")
            }
        }
    }

    /// The video track for settings checked by `checkVideo`.
    static func video(_ settings: [String: Any], hint: CMFormatDescription?, transform: CGAffineTransform, timeScale: CMTimeScale) -> MovieVideoSettings {
        let width = integer(settings[AVVideoWidthKey]) ?? Int(hint?.dimensions.width ?? 0)
        let height = integer(settings[AVVideoHeightKey]) ?? Int(hint?.dimensions.height ?? 0)
        let properties = settings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        let frameRate = double(properties[AVVideoExpectedSourceFrameRateKey]) ?? 30
        var video = MovieVideoSettings(width: width, height: height, frameRate: frameRate > 0 ? frameRate : 30)
        video.hevc = string(settings[AVVideoCodecKey]) == AVVideoCodecType.hevc.rawValue
        video.bitRate = integer(properties[AVVideoAverageBitRateKey]).flatMap { $0 > 0 ? $0 : nil }
        if let frames = integer(properties[AVVideoMaxKeyFrameIntervalKey]), frames > 0 {
            video.maximumKeyframeInterval = frames
        } else if let seconds = double(properties[AVVideoMaxKeyFrameIntervalDurationKey]), seconds > 0 {
            video.maximumKeyframeInterval = max(Int((seconds * video.frameRate).rounded(.down)), 1)
        }
        if let profileLevel = string(properties[AVVideoProfileLevelKey]) {
            // "H264_High_4_1" → profile "high", level "4.1"; HEVC_Main_AutoLevel → "main".
            let parts = profileLevel.split(separator: "_").map(String.init)
            if parts.count >= 2 { video.profile = parts[1].lowercased() }
            if parts.count == 4, !video.hevc { video.level = "\(parts[2]).\(parts[3])" }
        }
        if transform != .identity {
            func fixed(_ value: CGFloat, _ shift: Double) -> Int32 { Int32(clamping: Int64((Double(value) * shift).rounded())) }
            let unit = 65536.0
            video.displayMatrix = [
                fixed(transform.a, unit), fixed(transform.b, unit), 0, fixed(transform.c, unit), fixed(transform.d, unit), 0,
                fixed(transform.tx, unit), fixed(transform.ty, unit), 1 << 30,
            ]
        }
        if timeScale > 0 { video.timeScale = timeScale }
        // Checked by checkVideo already.
        video.colorTags = settings[AVVideoColorPropertiesKey].flatMap { try? colorTags($0) }
        video.pixelAspectRatio = try? pixelAspectRatio(settings)
        return video
    }

    /// The audio track for settings checked by `checkAudio`.
    static func audio(_ settings: [String: Any], hint: CMFormatDescription?) -> MovieAudioSettings {
        let source = hint?.audioStreamBasicDescription
        let rate = double(settings[AVSampleRateKey]) ?? source?.mSampleRate ?? 48_000
        let channels = integer(settings[AVNumberOfChannelsKey]) ?? Int(source?.mChannelsPerFrame ?? 1)
        let codec: MovieAudioSettings.Codec
        if AudioFormatID(truncatingIfNeeded: integer(settings[AVFormatIDKey]) ?? 0) == kAudioFormatLinearPCM {
            let isFloat = settings[AVLinearPCMIsFloatKey] as? Bool ?? (source.map { $0.mFormatFlags & kAudioFormatFlagIsFloat != 0 } ?? false)
            let depth = integer(settings[AVLinearPCMBitDepthKey]) ?? Int(source?.mBitsPerChannel ?? 16)
            codec = .linearPCM(bitDepth: depth, isFloat: isFloat, isBigEndian: settings[AVLinearPCMIsBigEndianKey] as? Bool ?? false)
        } else {
            let perChannel = integer(settings[AVEncoderBitRatePerChannelKey])
            codec = .aac(bitRate: integer(settings[AVEncoderBitRateKey]) ?? perChannel.map { $0 * channels } ?? 64_000 * channels)
        }
        var audio = MovieAudioSettings(codec: codec, sampleRate: Int(rate.rounded()), channels: channels)
        if case .aac = codec {
            audio.fastAACCoder = integer(settings[AVEncoderAudioQualityKey]).map { $0 < AVAudioQuality.medium.rawValue } ?? false
            // Variable rate at a quality only when no bit rate says otherwise: Apple's quality
            // 0 ... 127 onto FFmpeg's 0.1 ... 2.
            if string(settings[AVEncoderBitRateStrategyKey]) == AVAudioBitRateStrategy_Variable,
                settings[AVEncoderBitRateKey] == nil, settings[AVEncoderBitRatePerChannelKey] == nil,
                let quality = integer(settings[AVEncoderAudioQualityForVBRKey])
            {
                audio.variableQuality = 0.1 + 1.9 * Double(min(max(quality, 0), 127)) / 127
            }
        }
        return audio
    }

    /// The linear PCM track of a passthrough audio input: the hint's format.
    static func passthroughAudio(hint: CMFormatDescription?) -> MovieAudioSettings? {
        guard let asbd = hint?.audioStreamBasicDescription else { return nil }
        let codec = MovieAudioSettings.Codec.linearPCM(
            bitDepth: Int(asbd.mBitsPerChannel), isFloat: asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0,
            isBigEndian: asbd.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
        return MovieAudioSettings(codec: codec, sampleRate: Int(asbd.mSampleRate.rounded()), channels: Int(asbd.mChannelsPerFrame))
    }
}
