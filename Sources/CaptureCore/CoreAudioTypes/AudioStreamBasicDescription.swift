// CoreAudioTypes.h: the description of a stream of audio, as Swift imports it.

/// A four-character code naming an audio data format, such as `kAudioFormatLinearPCM`.
public typealias AudioFormatID = UInt32
/// Flags refining an `AudioFormatID`, such as `kAudioFormatFlagIsFloat`.
public typealias AudioFormatFlags = UInt32

/// The layout of the samples of a stream of audio: rate, format, and how samples make
/// frames and frames make packets. Linear PCM has one frame per packet.
public struct AudioStreamBasicDescription: Sendable {
    /// Frames per second.
    public var mSampleRate: Float64
    /// The data format, e.g. `kAudioFormatLinearPCM`.
    public var mFormatID: AudioFormatID
    /// Format-specific flags, e.g. `kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked`.
    public var mFormatFlags: AudioFormatFlags
    /// Bytes in a packet; 0 for formats whose packets vary in size.
    public var mBytesPerPacket: UInt32
    /// Frames in a packet (1 for linear PCM, 1024 for AAC).
    public var mFramesPerPacket: UInt32
    /// Bytes from one frame to the next in a buffer (one channel's for non-interleaved audio).
    public var mBytesPerFrame: UInt32
    /// Channels in a frame.
    public var mChannelsPerFrame: UInt32
    /// Bits of one sample of one channel.
    public var mBitsPerChannel: UInt32
    /// Pads the structure to an 8-byte boundary; must be 0.
    public var mReserved: UInt32

    /// Every field zero.
    public init() {
        self.init(
            mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
            mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    /// A description from each of its fields.
    public init(
        mSampleRate: Float64, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags, mBytesPerPacket: UInt32,
        mFramesPerPacket: UInt32, mBytesPerFrame: UInt32, mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32,
        mReserved: UInt32
    ) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}

extension AudioStreamBasicDescription {
    /// Whether two descriptions have the same fields (format descriptions compare this way).
    package func sameFields(as other: AudioStreamBasicDescription) -> Bool {
        mSampleRate == other.mSampleRate && mFormatID == other.mFormatID && mFormatFlags == other.mFormatFlags
            && mBytesPerPacket == other.mBytesPerPacket && mFramesPerPacket == other.mFramesPerPacket
            && mBytesPerFrame == other.mBytesPerFrame && mChannelsPerFrame == other.mChannelsPerFrame
            && mBitsPerChannel == other.mBitsPerChannel
    }

    /// Whether samples of each channel lie in a buffer of their own.
    package var isNonInterleaved: Bool { mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 }

    /// Packed linear PCM at `sampleRate`: `channels` channels of 16-bit signed integers or
    /// 32-bit floats, native endian (little endian on Linux).
    package static func linearPCM(
        sampleRate: Double, channels: Int, float: Bool, nonInterleaved: Bool = false
    ) -> AudioStreamBasicDescription {
        let bytes: UInt32 = float ? 4 : 2
        let frame = nonInterleaved ? bytes : bytes * UInt32(channels)
        var flags = (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
        if nonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frame,
            mFramesPerPacket: 1, mBytesPerFrame: frame, mChannelsPerFrame: UInt32(channels), mBitsPerChannel: bytes * 8,
            mReserved: 0)
    }
}

/// Where one packet of a variable-packet-size format (AAC) lies in a buffer.
public struct AudioStreamPacketDescription: Sendable {
    /// Bytes from the start of the buffer to the packet.
    public var mStartOffset: Int64
    /// Frames in the packet when the format's packets vary in frame count, else 0.
    public var mVariableFramesInPacket: UInt32
    /// Bytes in the packet.
    public var mDataByteSize: UInt32

    /// Every field zero.
    public init() { self.init(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 0) }

    /// A packet description from its fields.
    public init(mStartOffset: Int64, mVariableFramesInPacket: UInt32, mDataByteSize: UInt32) {
        self.mStartOffset = mStartOffset
        self.mVariableFramesInPacket = mVariableFramesInPacket
        self.mDataByteSize = mDataByteSize
    }
}
