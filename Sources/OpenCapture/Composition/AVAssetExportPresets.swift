import Foundation

// Export preset names (AVAssetExportSession.h), as Apple spells their values.

/// H.264 and AAC at a small size (fits 224x128, about 256 kbit/s).
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
/// H.264 and AAC at a medium size (fits 568x320, about 1.5 Mbit/s).
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
/// H.264 and AAC at the source's size.
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
/// HEVC and AAC at the source's size (needs libx265).
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"
/// HEVC with alpha: not offered (libx265 encodes no alpha).
public let AVAssetExportPresetHEVCHighestQualityWithAlpha = "AVAssetExportPresetHEVCHighestQualityWithAlpha"
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
public let AVAssetExportPresetHEVC1920x1080 = "AVAssetExportPresetHEVC1920x1080"
/// Not offered (no alpha encoding).
public let AVAssetExportPresetHEVC1920x1080WithAlpha = "AVAssetExportPresetHEVC1920x1080WithAlpha"
public let AVAssetExportPresetHEVC3840x2160 = "AVAssetExportPresetHEVC3840x2160"
/// Not offered (no alpha encoding).
public let AVAssetExportPresetHEVC3840x2160WithAlpha = "AVAssetExportPresetHEVC3840x2160WithAlpha"
/// MV-HEVC (stereo): not offered.
public let AVAssetExportPresetMVHEVC960x960 = "AVAssetExportPresetMVHEVC960x960"
/// MV-HEVC (stereo): not offered.
public let AVAssetExportPresetMVHEVC1440x1440 = "AVAssetExportPresetMVHEVC1440x1440"
/// An audio-only M4A file (AAC: copied when the source is AAC).
public let AVAssetExportPresetAppleM4A = "AVAssetExportPresetAppleM4A"
/// Every track's packets copied unchanged.
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
/// ProRes: not offered.
public let AVAssetExportPresetAppleProRes422LPCM = "AVAssetExportPresetAppleProRes422LPCM"
/// ProRes: not offered.
public let AVAssetExportPresetAppleProRes4444LPCM = "AVAssetExportPresetAppleProRes4444LPCM"

/// What a preset makes.
struct ExportPreset {
    enum Kind {
        case passthrough
        case audioOnly
        case video(hevc: Bool, maximum: (width: Int, height: Int)?, bitRate: Int?)
    }

    let kind: Kind

    init?(_ name: String) {
        switch name {
        case AVAssetExportPresetPassthrough: kind = .passthrough
        case AVAssetExportPresetAppleM4A: kind = .audioOnly
        case AVAssetExportPresetLowQuality: kind = .video(hevc: false, maximum: (224, 128), bitRate: 256_000)
        case AVAssetExportPresetMediumQuality: kind = .video(hevc: false, maximum: (568, 320), bitRate: 1_500_000)
        case AVAssetExportPresetHighestQuality: kind = .video(hevc: false, maximum: nil, bitRate: nil)
        case AVAssetExportPreset640x480: kind = .video(hevc: false, maximum: (640, 480), bitRate: nil)
        case AVAssetExportPreset960x540: kind = .video(hevc: false, maximum: (960, 540), bitRate: nil)
        case AVAssetExportPreset1280x720: kind = .video(hevc: false, maximum: (1280, 720), bitRate: nil)
        case AVAssetExportPreset1920x1080: kind = .video(hevc: false, maximum: (1920, 1080), bitRate: nil)
        case AVAssetExportPreset3840x2160: kind = .video(hevc: false, maximum: (3840, 2160), bitRate: nil)
        case AVAssetExportPresetHEVCHighestQuality: kind = .video(hevc: true, maximum: nil, bitRate: nil)
        case AVAssetExportPresetHEVC1920x1080: kind = .video(hevc: true, maximum: (1920, 1080), bitRate: nil)
        case AVAssetExportPresetHEVC3840x2160: kind = .video(hevc: true, maximum: (3840, 2160), bitRate: nil)
        default: return nil
        }
    }

    /// The H.264 presets, then the HEVC ones (libx265 present), then M4A; Passthrough is
    /// not listed, as on iOS.
    static func available(hevc: Bool) -> [String] {
        var names = [
            AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality, AVAssetExportPresetHighestQuality, AVAssetExportPreset640x480,
            AVAssetExportPreset960x540, AVAssetExportPreset1280x720, AVAssetExportPreset1920x1080, AVAssetExportPreset3840x2160,
        ]
        if hevc { names += [AVAssetExportPresetHEVCHighestQuality, AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC3840x2160] }
        return names + [AVAssetExportPresetAppleM4A]
    }

    var fileTypes: [AVFileType] {
        switch kind {
        case .passthrough: [.mov, .mp4, .m4v, .m4a]
        case .audioOnly: [.m4a]
        case .video: [.mov, .mp4, .m4v]
        }
    }
}
