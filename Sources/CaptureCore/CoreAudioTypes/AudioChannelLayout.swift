// CoreAudioTypes.h's channel layouts: which speaker each channel of a stream feeds.

/// A layout's tag: the layout's kind in the high 16 bits, its channel count in the low 16.
public typealias AudioChannelLayoutTag = UInt32
/// A channel's role, such as `kAudioChannelLabel_Left`.
public typealias AudioChannelLabel = UInt32

/// The channels' speakers, one bit each (layouts tagged `kAudioChannelLayoutTag_UseChannelBitmap`).
public struct AudioChannelBitmap: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let bit_Left = AudioChannelBitmap(rawValue: 1 << 0)
    public static let bit_Right = AudioChannelBitmap(rawValue: 1 << 1)
    public static let bit_Center = AudioChannelBitmap(rawValue: 1 << 2)
    public static let bit_LFEScreen = AudioChannelBitmap(rawValue: 1 << 3)
    public static let bit_LeftSurround = AudioChannelBitmap(rawValue: 1 << 4)
    public static let bit_RightSurround = AudioChannelBitmap(rawValue: 1 << 5)
    public static let bit_LeftCenter = AudioChannelBitmap(rawValue: 1 << 6)
    public static let bit_RightCenter = AudioChannelBitmap(rawValue: 1 << 7)
    public static let bit_CenterSurround = AudioChannelBitmap(rawValue: 1 << 8)
    public static let bit_LeftSurroundDirect = AudioChannelBitmap(rawValue: 1 << 9)
    public static let bit_RightSurroundDirect = AudioChannelBitmap(rawValue: 1 << 10)
    public static let bit_TopCenterSurround = AudioChannelBitmap(rawValue: 1 << 11)
    public static let bit_VerticalHeightLeft = AudioChannelBitmap(rawValue: 1 << 12)
    public static let bit_VerticalHeightCenter = AudioChannelBitmap(rawValue: 1 << 13)
    public static let bit_VerticalHeightRight = AudioChannelBitmap(rawValue: 1 << 14)
    public static let bit_TopBackLeft = AudioChannelBitmap(rawValue: 1 << 15)
    public static let bit_TopBackCenter = AudioChannelBitmap(rawValue: 1 << 16)
    public static let bit_TopBackRight = AudioChannelBitmap(rawValue: 1 << 17)
}

/// How a channel description's coordinates are meant.
public struct AudioChannelFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let allOff = AudioChannelFlags([])
    public static let rectangularCoordinates = AudioChannelFlags(rawValue: 1 << 0)
    public static let sphericalCoordinates = AudioChannelFlags(rawValue: 1 << 1)
    public static let meters = AudioChannelFlags(rawValue: 1 << 2)
}

/// One channel of a layout tagged `kAudioChannelLayoutTag_UseChannelDescriptions`.
public struct AudioChannelDescription: Sendable {
    public var mChannelLabel: AudioChannelLabel
    public var mChannelFlags: AudioChannelFlags
    public var mCoordinates: (Float32, Float32, Float32)

    /// Label 0 (unused), no flags, coordinates zero.
    public init() { self.init(mChannelLabel: 0, mChannelFlags: [], mCoordinates: (0, 0, 0)) }

    public init(mChannelLabel: AudioChannelLabel, mChannelFlags: AudioChannelFlags, mCoordinates: (Float32, Float32, Float32)) {
        self.mChannelLabel = mChannelLabel
        self.mChannelFlags = mChannelFlags
        self.mCoordinates = mCoordinates
    }
}

/// A channel layout: a tag naming a standard layout, or a bitmap, or
/// `mNumberChannelDescriptions` descriptions (the first in `mChannelDescriptions`, the
/// rest after it in the same allocation, a C flexible array as Swift imports it).
public struct AudioChannelLayout: Sendable {
    public var mChannelLayoutTag: AudioChannelLayoutTag
    public var mChannelBitmap: AudioChannelBitmap
    public var mNumberChannelDescriptions: UInt32
    public var mChannelDescriptions: AudioChannelDescription

    /// Every field zero (`kAudioChannelLayoutTag_UseChannelDescriptions` with none).
    public init() {
        self.init(mChannelLayoutTag: 0, mChannelBitmap: [], mNumberChannelDescriptions: 0, mChannelDescriptions: AudioChannelDescription())
    }

    public init(
        mChannelLayoutTag: AudioChannelLayoutTag, mChannelBitmap: AudioChannelBitmap, mNumberChannelDescriptions: UInt32,
        mChannelDescriptions: AudioChannelDescription
    ) {
        self.mChannelLayoutTag = mChannelLayoutTag
        self.mChannelBitmap = mChannelBitmap
        self.mNumberChannelDescriptions = mNumberChannelDescriptions
        self.mChannelDescriptions = mChannelDescriptions
    }
}

/// The channel count a layout tag carries in its low 16 bits.
public func AudioChannelLayoutTag_GetNumberOfChannels(_ inLayoutTag: AudioChannelLayoutTag) -> UInt32 {
    inLayoutTag & 0x0000_FFFF
}

/// The layout is given by its channel descriptions.
public let kAudioChannelLayoutTag_UseChannelDescriptions: AudioChannelLayoutTag = (0 << 16) | 0
/// The layout is given by its channel bitmap.
public let kAudioChannelLayoutTag_UseChannelBitmap: AudioChannelLayoutTag = (1 << 16) | 0
/// One channel: C.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// Two channels: L R.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2
/// Stereo for headphones.
public let kAudioChannelLayoutTag_StereoHeadphones: AudioChannelLayoutTag = (102 << 16) | 2
/// Matrix-encoded stereo: Lt Rt.
public let kAudioChannelLayoutTag_MatrixStereo: AudioChannelLayoutTag = (103 << 16) | 2
/// Mid-side recording.
public let kAudioChannelLayoutTag_MidSide: AudioChannelLayoutTag = (104 << 16) | 2
/// Coincident microphone pair.
public let kAudioChannelLayoutTag_XY: AudioChannelLayoutTag = (105 << 16) | 2
/// Binaural stereo.
public let kAudioChannelLayoutTag_Binaural: AudioChannelLayoutTag = (106 << 16) | 2
/// First-order ambisonic B format: W X Y Z.
public let kAudioChannelLayoutTag_Ambisonic_B_Format: AudioChannelLayoutTag = (107 << 16) | 4
/// Four channels: front left and right, back left and right.
public let kAudioChannelLayoutTag_Quadraphonic: AudioChannelLayoutTag = (108 << 16) | 4
/// Five channels, a pentagon.
public let kAudioChannelLayoutTag_Pentagonal: AudioChannelLayoutTag = (109 << 16) | 5
/// Six channels, a hexagon.
public let kAudioChannelLayoutTag_Hexagonal: AudioChannelLayoutTag = (110 << 16) | 6
/// Eight channels, an octagon.
public let kAudioChannelLayoutTag_Octagonal: AudioChannelLayoutTag = (111 << 16) | 8
/// Eight channels, a cube.
public let kAudioChannelLayoutTag_Cube: AudioChannelLayoutTag = (112 << 16) | 8
/// MPEG 1.0: C.
public let kAudioChannelLayoutTag_MPEG_1_0: AudioChannelLayoutTag = kAudioChannelLayoutTag_Mono
/// MPEG 2.0: L R.
public let kAudioChannelLayoutTag_MPEG_2_0: AudioChannelLayoutTag = kAudioChannelLayoutTag_Stereo
/// MPEG 3.0 A: L R C.
public let kAudioChannelLayoutTag_MPEG_3_0_A: AudioChannelLayoutTag = (113 << 16) | 3
/// MPEG 3.0 B: C L R.
public let kAudioChannelLayoutTag_MPEG_3_0_B: AudioChannelLayoutTag = (114 << 16) | 3
/// MPEG 4.0 A: L R C Cs.
public let kAudioChannelLayoutTag_MPEG_4_0_A: AudioChannelLayoutTag = (115 << 16) | 4
/// MPEG 4.0 B: C L R Cs.
public let kAudioChannelLayoutTag_MPEG_4_0_B: AudioChannelLayoutTag = (116 << 16) | 4
/// MPEG 5.0 A: L R C Ls Rs.
public let kAudioChannelLayoutTag_MPEG_5_0_A: AudioChannelLayoutTag = (117 << 16) | 5
/// MPEG 5.1 A: L R C LFE Ls Rs.
public let kAudioChannelLayoutTag_MPEG_5_1_A: AudioChannelLayoutTag = (121 << 16) | 6
/// Channels in the order given, with no roles.
public let kAudioChannelLayoutTag_DiscreteInOrder: AudioChannelLayoutTag = (147 << 16) | 0
/// An unknown layout (low 16 bits: the channel count).
public let kAudioChannelLayoutTag_Unknown: AudioChannelLayoutTag = 0xFFFF_0000

/// A channel with an unknown role.
public let kAudioChannelLabel_Unknown: AudioChannelLabel = 0xFFFF_FFFF
/// A channel not used.
public let kAudioChannelLabel_Unused: AudioChannelLabel = 0
/// The channel's place is given by its coordinates.
public let kAudioChannelLabel_UseCoordinates: AudioChannelLabel = 100
public let kAudioChannelLabel_Left: AudioChannelLabel = 1
public let kAudioChannelLabel_Right: AudioChannelLabel = 2
public let kAudioChannelLabel_Center: AudioChannelLabel = 3
public let kAudioChannelLabel_LFEScreen: AudioChannelLabel = 4
public let kAudioChannelLabel_LeftSurround: AudioChannelLabel = 5
public let kAudioChannelLabel_RightSurround: AudioChannelLabel = 6
/// A single channel of a mono recording.
public let kAudioChannelLabel_Mono: AudioChannelLabel = 42

extension AudioChannelLayout {
    /// Bytes from the start of a layout to its first channel description.
    package static var descriptionsOffset: Int { MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)! }

    /// Bytes a layout with `descriptions` channel descriptions needs (at least one's room,
    /// as `sizeof(AudioChannelLayout)` in C).
    package static func size(descriptions: Int) -> Int {
        descriptionsOffset + max(1, descriptions) * MemoryLayout<AudioChannelDescription>.stride
    }
}
