import Foundation
import MediaIO

/// Interleaved linear PCM in a ready sample buffer, as the reader's outputs hand it out.
enum PCMSampleBuffer {
    /// A sample buffer of `frames` frames of `data` at `time`; nil for no frames.
    static func make(_ data: Data, frames: Int, time: CMTime, sampleRate: Int, channels: Int, format: MovieTrackDecoder.PCMFormat) -> CMSampleBuffer? {
        let channels = UInt32(channels)
        let bytesPerFrame = UInt32(format.bytesPerSample) * channels
        let asbd = AudioStreamBasicDescription(
            mSampleRate: Float64(sampleRate), mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: (format.float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked,
            mBytesPerPacket: bytesPerFrame, mFramesPerPacket: 1, mBytesPerFrame: bytesPerFrame, mChannelsPerFrame: channels,
            mBitsPerChannel: UInt32(format.bitsPerChannel), mReserved: 0)
        guard let description = try? CMAudioFormatDescription(audioStreamBasicDescription: asbd), frames > 0 else { return nil }
        var block: CMBlockBuffer?
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: data.count, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: data.count, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block)
        guard let block else { return nil }
        data.withUnsafeBytes { _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block, offsetIntoDestination: 0, dataLength: data.count) }
        var made: CMSampleBuffer?
        CMAudioSampleBufferCreateReadyWithPacketDescriptions(
            allocator: nil, dataBuffer: block, formatDescription: description, sampleCount: frames, presentationTimeStamp: time,
            packetDescriptions: nil, sampleBufferOut: &made)
        return made
    }

    /// Float samples in `format` (clamped to -1...1 for integers; 8-bit is offset binary,
    /// as the decoder writes it).
    static func encode(_ samples: [Float], as format: MovieTrackDecoder.PCMFormat) -> Data {
        if format.float && format.bitsPerChannel == 32 { return samples.withUnsafeBufferPointer { Data(buffer: $0) } }
        var data = Data(count: samples.count * format.bytesPerSample)
        data.withUnsafeMutableBytes { bytes in
            for (index, sample) in samples.enumerated() {
                format.store(Double(sample), into: bytes, at: index * format.bytesPerSample)
            }
        }
        return data
    }
}
