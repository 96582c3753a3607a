import Foundation

// Audio sample buffers (CMSampleBuffer.h): a block buffer of samples described by an
// audio format description, one timing entry for all of them.

/// Make each audio buffer of the list start on a 16-byte boundary (copying if needed).
public let kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment: Int = 1 << 0

/// The block buffer of an audio (or other data) sample buffer; nil for an image buffer.
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? { sbuf.audioData }

/// Makes an audio sample buffer of `numSamples` frames (linear PCM) or packets
/// (compressed audio, whose packets `packetDescriptions` locates) from
/// `presentationTimeStamp`, each sample 1 / sample rate apart. Linear PCM takes no
/// packet descriptions and its data must hold exactly `numSamples` frames.
@discardableResult
public func CMAudioSampleBufferCreateWithPacketDescriptions(
    allocator: AnyObject?, dataBuffer: CMBlockBuffer?, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
    formatDescription: CMFormatDescription, sampleCount numSamples: CMItemCount, presentationTimeStamp: CMTime,
    packetDescriptions: UnsafePointer<AudioStreamPacketDescription>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard let asbd = formatDescription.audioStreamBasicDescription else { return kCMSampleBufferError_InvalidMediaFormat }
    guard numSamples > 0 else { return kCMSampleBufferError_InvalidEntryCount }
    guard presentationTimeStamp.isValid else { return kCMSampleBufferError_SampleTimingInfoInvalid }
    let packets = packetDescriptions.map { Array(UnsafeBufferPointer(start: $0, count: numSamples)) } ?? []
    if asbd.mBytesPerPacket == 0 && packetDescriptions == nil { return kCMSampleBufferError_RequiredParameterMissing }
    if asbd.mFormatID == kAudioFormatLinearPCM && packetDescriptions != nil { return kCMSampleBufferError_InvalidMediaFormat }
    if let dataBuffer {
        guard audioDataLength(asbd, samples: numSamples, packets: packets) <= dataBuffer.dataLength else {
            return kCMSampleBufferError_InvalidSampleData
        }
    }
    let made = CMSampleBuffer(
        dataBuffer: dataBuffer, formatDescription: formatDescription, sampleCount: numSamples,
        presentationTimeStamp: presentationTimeStamp, packetDescriptions: packets)
    if !dataReady { made.startNotReady(makeDataReadyCallback, refcon: refcon) }
    sampleBufferOut.pointee = made
    return noErr
}

/// Makes a ready audio sample buffer (see `CMAudioSampleBufferCreateWithPacketDescriptions`).
@discardableResult
public func CMAudioSampleBufferCreateReadyWithPacketDescriptions(
    allocator: AnyObject?, dataBuffer: CMBlockBuffer, formatDescription: CMFormatDescription,
    sampleCount numSamples: CMItemCount, presentationTimeStamp: CMTime,
    packetDescriptions: UnsafePointer<AudioStreamPacketDescription>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMAudioSampleBufferCreateWithPacketDescriptions(
        allocator: allocator, dataBuffer: dataBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: formatDescription, sampleCount: numSamples, presentationTimeStamp: presentationTimeStamp,
        packetDescriptions: packetDescriptions, sampleBufferOut: sampleBufferOut)
}

/// Bytes the samples take: frames × bytes per frame (× channels when non-interleaved) for
/// constant-size packets, the end of the last packet otherwise.
private func audioDataLength(_ asbd: AudioStreamBasicDescription, samples: Int, packets: [AudioStreamPacketDescription]) -> Int {
    if asbd.mBytesPerPacket == 0 {
        return packets.map { Int($0.mStartOffset) + Int($0.mDataByteSize) }.max() ?? 0
    }
    let planes = asbd.isNonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    return samples * Int(asbd.mBytesPerPacket) * planes
}

/// The size of sample `sampleIndex` in bytes: from the sizes the buffer was made with, else
/// a frame of every channel for linear PCM, a packet's size for compressed audio.
public func CMSampleBufferGetSampleSize(_ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex) -> Int {
    guard sampleIndex >= 0, sampleIndex < sbuf.numSamples else { return 0 }
    if let sizes = sbuf.withState({ $0.sampleSizes }) {
        return sizes.isEmpty ? 0 : sizes.count == 1 ? sizes[0] : sizes[sampleIndex]
    }
    guard let asbd = sbuf.formatDescription?.audioStreamBasicDescription else { return 0 }
    if asbd.mBytesPerPacket == 0 { return Int(sbuf.packetDescriptions[sampleIndex].mDataByteSize) }
    return Int(asbd.mBytesPerPacket) * (asbd.isNonInterleaved ? Int(asbd.mChannelsPerFrame) : 1)
}

/// The bytes of all samples; 0 for image buffers and buffers made without sizes.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int {
    if let sizes = sbuf.withState({ $0.sampleSizes }) {
        return sizes.count == 1 ? sizes[0] * sbuf.numSamples : sizes.reduce(0, +)
    }
    guard let asbd = sbuf.formatDescription?.audioStreamBasicDescription else { return 0 }
    return audioDataLength(asbd, samples: sbuf.numSamples, packets: sbuf.packetDescriptions)
}

/// Fills `bufferListOut` with the sample buffer's audio: one buffer for interleaved
/// audio or compressed packets, one per channel for non-interleaved audio, each pointing
/// into `blockBufferOut`, which keeps the memory alive (a contiguous copy when the data was
/// in pieces, or misaligned under `kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment`).
/// With `bufferListOut` nil, only `bufferListSizeNeededOut` is set.
@discardableResult
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?,
    bufferListOut: UnsafeMutablePointer<AudioBufferList>?, bufferListSize: Int,
    blockBufferAllocator blockBufferStructureAllocator: AnyObject?,
    blockBufferMemoryAllocator blockBufferBlockAllocator: AnyObject?, flags: UInt32,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?
) -> OSStatus {
    guard let asbd = sbuf.formatDescription?.audioStreamBasicDescription else {
        return kCMSampleBufferError_InvalidMediaTypeForOperation
    }
    let linear = asbd.mFormatID == kAudioFormatLinearPCM
    let buffers = linear && asbd.isNonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    let needed = AudioBufferList.sizeInBytes(maximumBuffers: buffers)
    bufferListSizeNeededOut?.pointee = needed
    guard let bufferListOut else { return noErr }
    guard bufferListSize >= needed else { return kCMSampleBufferError_ArrayTooSmall }
    guard let blockBufferOut else { return kCMSampleBufferError_RequiredParameterMissing }
    guard let data = sbuf.audioData else { return kCMSampleBufferError_BufferNotReady }
    let length = CMSampleBufferGetTotalSampleSize(sbuf)
    var contiguous: CMBlockBuffer?
    var status = CMBlockBufferCreateContiguous(
        allocator: blockBufferStructureAllocator, sourceBuffer: data, blockAllocator: blockBufferBlockAllocator,
        customBlockSource: nil, offsetToData: 0, dataLength: length, flags: 0, blockBufferOut: &contiguous)
    guard status == noErr, var block = contiguous else { return status }
    var pointer: UnsafeMutablePointer<CChar>?
    status = CMBlockBufferGetDataPointer(block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: nil, dataPointerOut: &pointer)
    guard status == noErr, let base = pointer.map(UnsafeMutableRawPointer.init) else { return status }
    let plane = length / buffers
    let wantsAlignment = Int(flags) & kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment != 0
    if wantsAlignment && (Int(bitPattern: base) % 16 != 0 || plane % 16 != 0 && buffers > 1) {
        // Copy into a fresh block whose planes each start on 16 bytes.
        let stride = (plane + 15) & ~15
        guard let aligned = CMBlockBuffer(allocating: stride * buffers), let target = aligned.pieces.first?.block.pointer else {
            return kCMBlockBufferBlockAllocationFailedErr
        }
        for index in 0..<buffers { (target + index * stride).copyMemory(from: base + index * plane, byteCount: plane) }
        block = aligned
        fill(bufferListOut, buffers: buffers, channels: linear && asbd.isNonInterleaved ? 1 : asbd.mChannelsPerFrame) {
            (target + $0 * stride, plane)
        }
    } else {
        let start = base
        fill(bufferListOut, buffers: buffers, channels: linear && asbd.isNonInterleaved ? 1 : asbd.mChannelsPerFrame) {
            (start + $0 * plane, plane)
        }
    }
    blockBufferOut.pointee = block
    return noErr
}

private func fill(
    _ list: UnsafeMutablePointer<AudioBufferList>, buffers: Int, channels: UInt32,
    _ buffer: (Int) -> (UnsafeMutableRawPointer, Int)
) {
    let view = UnsafeMutableAudioBufferListPointer(list)
    view.count = buffers
    for index in 0..<buffers {
        let (data, size) = buffer(index)
        view[index] = AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(size), mData: data)
    }
}

/// Copies `numFrames` frames of linear PCM from `frameOffset` into the caller's buffers
/// (one, or one per channel for non-interleaved audio), setting each `mDataByteSize`.
@discardableResult
public func CMSampleBufferCopyPCMDataIntoAudioBufferList(
    _ sbuf: CMSampleBuffer, at frameOffset: Int32, frameCount numFrames: Int32,
    into bufferList: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    guard let asbd = sbuf.formatDescription?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM else {
        return kCMSampleBufferError_InvalidMediaFormat
    }
    guard let data = sbuf.audioData else { return kCMSampleBufferError_BufferNotReady }
    guard frameOffset >= 0, numFrames >= 0, Int(frameOffset) + Int(numFrames) <= sbuf.numSamples else {
        return kCMSampleBufferError_SampleIndexOutOfRange
    }
    let planes = asbd.isNonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    let view = UnsafeMutableAudioBufferListPointer(bufferList)
    guard view.count == planes else { return kCMSampleBufferError_InvalidMediaFormat }
    let frame = Int(asbd.mBytesPerFrame)
    let planeLength = sbuf.numSamples * frame
    let bytes = Int(numFrames) * frame
    for index in 0..<planes {
        guard let destination = view[index].mData, Int(view[index].mDataByteSize) >= bytes else {
            return kCMSampleBufferError_ArrayTooSmall
        }
        let status = CMBlockBufferCopyDataBytes(
            data, atOffset: index * planeLength + Int(frameOffset) * frame, dataLength: bytes, destination: destination)
        guard status == noErr else { return status }
        view[index].mDataByteSize = UInt32(bytes)
    }
    return noErr
}

/// Gives an audio sample buffer made without data a copy of `bufferList`'s data (planes
/// one after another). `kCMSampleBufferError_AlreadyHasDataBuffer` if it has data.
@discardableResult
public func CMSampleBufferSetDataBufferFromAudioBufferList(
    _ sbuf: CMSampleBuffer, blockBufferAllocator blockBufferStructureAllocator: AnyObject?,
    blockBufferMemoryAllocator blockBufferBlockAllocator: AnyObject?, flags: UInt32,
    bufferList: UnsafePointer<AudioBufferList>
) -> OSStatus {
    guard let asbd = sbuf.formatDescription?.audioStreamBasicDescription else { return kCMSampleBufferError_InvalidMediaFormat }
    guard sbuf.audioData == nil else { return kCMSampleBufferError_AlreadyHasDataBuffer }
    let view = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: bufferList))
    let planes = asbd.mFormatID == kAudioFormatLinearPCM && asbd.isNonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    guard view.count == planes else { return kCMSampleBufferError_InvalidMediaFormat }
    let plane = CMSampleBufferGetTotalSampleSize(sbuf) / planes
    guard view.allSatisfy({ Int($0.mDataByteSize) == plane && $0.mData != nil }) else { return kCMSampleBufferError_InvalidSampleData }
    guard let block = CMBlockBuffer(allocating: plane * planes), let target = block.pieces.first?.block.pointer else {
        return kCMSampleBufferError_AllocationFailed
    }
    for (index, buffer) in view.enumerated() { (target + index * plane).copyMemory(from: buffer.mData!, byteCount: plane) }
    return sbuf.setAudioData(block, packets: sbuf.packetDescriptions) ? noErr : kCMSampleBufferError_AlreadyHasDataBuffer
}

extension CMSampleBuffer {
    /// Options for reading a sample buffer's audio (the Swift overlay's flags).
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment`.
        public static let audioBufferListAssure16ByteAlignment = Flags(rawValue: 1 << 0)
    }

    /// The block buffer of the samples; nil for an image buffer (the Swift overlay's property).
    public var dataBuffer: CMBlockBuffer? { audioData }

    /// The bytes of all samples (the Swift overlay's property).
    public var totalSampleSize: Int { CMSampleBufferGetTotalSampleSize(self) }

    /// Calls `body` with the audio as a buffer list and the block buffer that holds it
    /// (the Swift overlay's method); throws the status of
    /// `CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer` as an `NSOSStatusErrorDomain` error.
    public func withAudioBufferList<R>(
        blockBufferMemoryAllocator: AnyObject? = kCFAllocatorDefault, flags: CMSampleBuffer.Flags = [],
        body: (UnsafeMutableAudioBufferListPointer, CMBlockBuffer) throws -> R
    ) throws -> R {
        var needed = 0
        var status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: &needed, bufferListOut: nil, bufferListSize: 0, blockBufferAllocator: nil,
            blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue, blockBufferOut: nil)
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: MemoryLayout<AudioBufferList>.alignment)
        defer { raw.deallocate() }
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        var block: CMBlockBuffer?
        status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: nil, bufferListOut: list, bufferListSize: needed, blockBufferAllocator: nil,
            blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue, blockBufferOut: &block)
        guard status == noErr, let block else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return try body(UnsafeMutableAudioBufferListPointer(list), block)
    }
}
