// CoreAudioTypes.h, CMBlockBuffer.h and the audio parts of CMFormatDescription.h and
// CMSampleBuffer.h, spelled as iOS code spells them.
import CoreMedia
import Foundation
import Testing

/// Touches the audio declarations; compiled, never called.
func spellCoreAudioTypes(_ sampleBuffer: CMSampleBuffer) {
    var asbd = AudioStreamBasicDescription(
        mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2, mFramesPerPacket: 1,
        mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
    let empty = AudioStreamBasicDescription()
    let ids: [AudioFormatID] = [
        kAudioFormatLinearPCM, kAudioFormatMPEG4AAC, kAudioFormatAppleLossless, kAudioFormatMPEGLayer3, kAudioFormatAC3,
        kAudioFormatEnhancedAC3, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatULaw, kAudioFormatALaw,
        kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2, kAudioFormatMPEG4AAC_ELD, kAudioFormatAMR, kAudioFormatiLBC,
        kAudioFormatAppleIMA4,
    ]
    let flags: [AudioFormatFlags] = [
        kAudioFormatFlagIsFloat, kAudioFormatFlagIsBigEndian, kAudioFormatFlagIsSignedInteger, kAudioFormatFlagIsPacked,
        kAudioFormatFlagIsAlignedHigh, kAudioFormatFlagIsNonInterleaved, kAudioFormatFlagIsNonMixable,
        kAudioFormatFlagsAreAllClear, kAudioFormatFlagsNativeEndian, kAudioFormatFlagsNativeFloatPacked,
        kLinearPCMFormatFlagIsFloat, kLinearPCMFormatFlagIsSignedInteger, kLinearPCMFormatFlagIsPacked,
        kLinearPCMFormatFlagIsNonInterleaved, kLinearPCMFormatFlagIsBigEndian, kLinearPCMFormatFlagsSampleFractionShift,
        kLinearPCMFormatFlagsSampleFractionMask,
    ]
    let packet = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 6)
    // Channel layouts.
    var layout = AudioChannelLayout()
    layout.mChannelLayoutTag = kAudioChannelLayoutTag_Mono
    layout.mChannelBitmap = [.bit_Left, .bit_Right]
    layout.mNumberChannelDescriptions = 0
    layout.mChannelDescriptions = AudioChannelDescription(
        mChannelLabel: kAudioChannelLabel_Mono, mChannelFlags: .allOff, mCoordinates: (0, 0, 0))
    let tags: [AudioChannelLayoutTag] = [
        kAudioChannelLayoutTag_Mono, kAudioChannelLayoutTag_Stereo, kAudioChannelLayoutTag_UseChannelDescriptions,
        kAudioChannelLayoutTag_UseChannelBitmap, kAudioChannelLayoutTag_MPEG_5_1_A, kAudioChannelLayoutTag_Unknown,
        kAudioChannelLayoutTag_DiscreteInOrder, kAudioChannelLayoutTag_Binaural, kAudioChannelLayoutTag_Quadraphonic,
    ]
    let labels: [AudioChannelLabel] = [
        kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center, kAudioChannelLabel_Mono,
        kAudioChannelLabel_Unknown, kAudioChannelLabel_Unused, kAudioChannelLabel_LFEScreen,
    ]
    let channels: UInt32 = AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_Stereo)
    // Buffer lists.
    var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: nil))
    let view = UnsafeMutableAudioBufferListPointer(&list)
    let first: AudioBuffer = view[0]
    let many: UnsafeMutableAudioBufferListPointer = AudioBufferList.allocate(maximumBuffers: 2)
    let size: Int = AudioBufferList.sizeInBytes(maximumBuffers: 2)
    free(many.unsafeMutablePointer)
    // Block buffers.
    var block: CMBlockBuffer?
    let s1: OSStatus = CMBlockBufferCreateWithMemoryBlock(
        allocator: kCFAllocatorDefault, memoryBlock: nil, blockLength: 64, blockAllocator: kCFAllocatorDefault,
        customBlockSource: nil, offsetToData: 0, dataLength: 64, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block)
    var emptyBlock: CMBlockBuffer?
    let s2: OSStatus = CMBlockBufferCreateEmpty(allocator: kCFAllocatorDefault, capacity: 2, flags: 0, blockBufferOut: &emptyBlock)
    let s3: OSStatus = CMBlockBufferAppendBufferReference(emptyBlock!, targetBBuf: block!, offsetToData: 0, dataLength: 32, flags: 0)
    let s4: OSStatus = CMBlockBufferAppendMemoryBlock(
        emptyBlock!, memoryBlock: nil, length: 16, blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 16,
        flags: 0)
    var reference: CMBlockBuffer?
    let s5: OSStatus = CMBlockBufferCreateWithBufferReference(
        allocator: nil, referenceBuffer: block!, offsetToData: 8, dataLength: 8, flags: 0, blockBufferOut: &reference)
    var contiguous: CMBlockBuffer?
    let s6: OSStatus = CMBlockBufferCreateContiguous(
        allocator: nil, sourceBuffer: emptyBlock!, blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 0,
        flags: 0, blockBufferOut: &contiguous)
    var bytes = [UInt8](repeating: 0, count: 64)
    let s7: OSStatus = CMBlockBufferCopyDataBytes(block!, atOffset: 0, dataLength: 64, destination: &bytes)
    let s8: OSStatus = CMBlockBufferReplaceDataBytes(with: bytes, blockBuffer: block!, offsetIntoDestination: 0, dataLength: 64)
    let s9: OSStatus = CMBlockBufferFillDataBytes(with: 0, blockBuffer: block!, offsetIntoDestination: 0, dataLength: 64)
    var lengthAtOffset = 0
    var totalLength = 0
    var dataPointer: UnsafeMutablePointer<CChar>?
    let s10: OSStatus = CMBlockBufferGetDataPointer(
        block!, atOffset: 0, lengthAtOffsetOut: &lengthAtOffset, totalLengthOut: &totalLength, dataPointerOut: &dataPointer)
    var accessed: UnsafeMutablePointer<CChar>?
    let s11: OSStatus = CMBlockBufferAccessDataBytes(block!, atOffset: 0, length: 8, temporaryBlock: &bytes, returnedPointerOut: &accessed)
    let s12: OSStatus = CMBlockBufferAssureBlockMemory(block!)
    let blockFacts: (Int, Bool, Bool, Int, Bool) = (
        CMBlockBufferGetDataLength(block!), CMBlockBufferIsEmpty(block!),
        CMBlockBufferIsRangeContiguous(block!, atOffset: 0, length: 64), block!.dataLength, block!.isEmpty)
    let blockErrors: [OSStatus] = [
        kCMBlockBufferNoErr, kCMBlockBufferBadOffsetParameterErr, kCMBlockBufferBadLengthParameterErr,
        kCMBlockBufferEmptyBBufErr, kCMBlockBufferBlockAllocationFailedErr, kCMBlockBufferInsufficientSpaceErr,
    ]
    let blockFlags: [CMBlockBufferFlags] = [
        kCMBlockBufferAssureMemoryNowFlag, kCMBlockBufferAlwaysCopyDataFlag, kCMBlockBufferDontOptimizeDepthFlag,
        kCMBlockBufferPermitEmptyReferenceFlag,
    ]
    let source = CMBlockBufferCustomBlockSource(version: kCMBlockBufferCustomBlockSourceVersion, AllocateBlock: nil, FreeBlock: nil, refCon: nil)
    let null: AnyObject? = kCFAllocatorNull
    // Audio format descriptions.
    var format: CMAudioFormatDescription?
    let s13: OSStatus = CMAudioFormatDescriptionCreate(
        allocator: kCFAllocatorDefault, asbd: &asbd, layoutSize: MemoryLayout<AudioChannelLayout>.size, layout: &layout,
        magicCookieSize: 0, magicCookie: nil, extensions: nil, formatDescriptionOut: &format)
    let stream: UnsafePointer<AudioStreamBasicDescription>? = CMAudioFormatDescriptionGetStreamBasicDescription(format!)
    var layoutSize = 0
    let gotLayout: UnsafePointer<AudioChannelLayout>? = CMAudioFormatDescriptionGetChannelLayout(format!, sizeOut: &layoutSize)
    var cookieSize = 0
    let cookie: UnsafeRawPointer? = CMAudioFormatDescriptionGetMagicCookie(format!, sizeOut: &cookieSize)
    let overlayASBD: AudioStreamBasicDescription? = format!.audioStreamBasicDescription
    let made: CMAudioFormatDescription? = try? CMAudioFormatDescription(audioStreamBasicDescription: asbd)
    let formatErrors: [OSStatus] = [kCMFormatDescriptionError_InvalidParameter, kCMFormatDescriptionError_ValueNotAvailable]
    // Audio sample buffers.
    var audio: CMSampleBuffer?
    let s14: OSStatus = CMAudioSampleBufferCreateWithPacketDescriptions(
        allocator: kCFAllocatorDefault, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: format!, sampleCount: 32, presentationTimeStamp: .zero, packetDescriptions: nil, sampleBufferOut: &audio)
    let s15: OSStatus = CMAudioSampleBufferCreateReadyWithPacketDescriptions(
        allocator: kCFAllocatorDefault, dataBuffer: block!, formatDescription: format!, sampleCount: 32,
        presentationTimeStamp: .zero, packetDescriptions: nil, sampleBufferOut: &audio)
    let data: CMBlockBuffer? = CMSampleBufferGetDataBuffer(sampleBuffer)
    var needed = 0
    var retained: CMBlockBuffer?
    let s16: OSStatus = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
        sampleBuffer, bufferListSizeNeededOut: &needed, bufferListOut: &list, bufferListSize: MemoryLayout<AudioBufferList>.size,
        blockBufferAllocator: nil, blockBufferMemoryAllocator: nil,
        flags: UInt32(kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment), blockBufferOut: &retained)
    let s17: OSStatus = CMSampleBufferCopyPCMDataIntoAudioBufferList(sampleBuffer, at: 0, frameCount: 16, into: &list)
    let s18: OSStatus = CMSampleBufferSetDataBufferFromAudioBufferList(
        sampleBuffer, blockBufferAllocator: nil, blockBufferMemoryAllocator: nil, flags: 0, bufferList: &list)
    let sizes: (Int, Int, Int, CMBlockBuffer?) = (
        CMSampleBufferGetTotalSampleSize(sampleBuffer), CMSampleBufferGetSampleSize(sampleBuffer, at: 0),
        sampleBuffer.totalSampleSize, sampleBuffer.dataBuffer)
    let peak: Int16? = try? sampleBuffer.withAudioBufferList(flags: [.audioBufferListAssure16ByteAlignment]) { buffers, _ in
        buffers.first?.mData?.assumingMemoryBound(to: Int16.self).pointee
    }
    _ = (empty, ids, flags, packet, tags, labels, channels, first, size, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12)
    _ = (blockFacts, blockErrors, blockFlags, source, null, s13, stream, gotLayout, cookie, overlayASBD, made, formatErrors)
    _ = (s14, s15, data, s16, s17, s18, sizes, peak, reference, contiguous, accessed)
}

/// Makes 16-bit mono PCM at 48 kHz holding `samples`.
private func makePCM(_ samples: [Int16], at time: CMTime = .zero) throws -> CMSampleBuffer {
    var asbd = AudioStreamBasicDescription(
        mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2, mFramesPerPacket: 1,
        mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
    var format: CMAudioFormatDescription?
    #expect(
        CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &asbd, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil,
            formatDescriptionOut: &format) == noErr)
    var block: CMBlockBuffer?
    let bytes = samples.count * 2
    #expect(
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: bytes, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: bytes, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block) == noErr)
    samples.withUnsafeBytes { raw in
        #expect(CMBlockBufferReplaceDataBytes(with: raw.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: bytes) == noErr)
    }
    var sample: CMSampleBuffer?
    #expect(
        CMAudioSampleBufferCreateReadyWithPacketDescriptions(
            allocator: nil, dataBuffer: block!, formatDescription: format!, sampleCount: samples.count, presentationTimeStamp: time,
            packetDescriptions: nil, sampleBufferOut: &sample) == noErr)
    return try #require(sample)
}

@Suite("CoreAudioTypes and audio sample buffer spelling")
struct CoreAudioTypesSpellingTests {
    @Test("Constants have Core Audio's values and the structures C's sizes")
    func constants() {
        #expect(kAudioFormatLinearPCM == 0x6C70636D)  // 'lpcm'
        #expect(kAudioFormatMPEG4AAC == 0x61616320)  // 'aac '
        #expect(kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked == 12)
        #expect(kAudioFormatFlagsNativeFloatPacked == 9)
        #expect(kAudioChannelLayoutTag_Stereo == 6_619_138)
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(kAudioChannelLayoutTag_Mono) == 1)
        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
        #expect(MemoryLayout<AudioBuffer>.size == 16)
        #expect(MemoryLayout<AudioBufferList>.size == 24)
        #expect(MemoryLayout<AudioChannelLayout>.size == 32)
        #expect(AudioBufferList.sizeInBytes(maximumBuffers: 2) == 40)
    }

    @Test("A block buffer over pieces reads as one range; the data pointer covers one piece")
    func blockBufferPieces() {
        var block: CMBlockBuffer?
        #expect(CMBlockBufferCreateEmpty(allocator: nil, capacity: 2, flags: 0, blockBufferOut: &block) == noErr)
        var first: [UInt8] = [1, 2, 3, 4]
        var second: [UInt8] = [5, 6]
        first.withUnsafeMutableBytes { raw in
            #expect(
                CMBlockBufferAppendMemoryBlock(
                    block!, memoryBlock: nil, length: 4, blockAllocator: nil, customBlockSource: nil, offsetToData: 0, dataLength: 4,
                    flags: 0) == noErr)
            #expect(CMBlockBufferReplaceDataBytes(with: raw.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: 4) == noErr)
        }
        second.withUnsafeMutableBytes { raw in
            // The caller keeps this block: kCFAllocatorNull frees nothing.
            var other: CMBlockBuffer?
            #expect(
                CMBlockBufferCreateWithMemoryBlock(
                    allocator: nil, memoryBlock: raw.baseAddress, blockLength: 2, blockAllocator: kCFAllocatorNull,
                    customBlockSource: nil, offsetToData: 0, dataLength: 2, flags: 0, blockBufferOut: &other) == noErr)
            #expect(CMBlockBufferAppendBufferReference(block!, targetBBuf: other!, offsetToData: 0, dataLength: 2, flags: 0) == noErr)
            #expect(CMBlockBufferGetDataLength(block!) == 6)
            #expect(!CMBlockBufferIsRangeContiguous(block!, atOffset: 2, length: 4))
            #expect(CMBlockBufferIsRangeContiguous(block!, atOffset: 4, length: 2))
            var out = [UInt8](repeating: 0, count: 4)
            #expect(CMBlockBufferCopyDataBytes(block!, atOffset: 2, dataLength: 4, destination: &out) == noErr)
            #expect(out == [3, 4, 5, 6])
            var length = 0
            var total = 0
            var pointer: UnsafeMutablePointer<CChar>?
            #expect(
                CMBlockBufferGetDataPointer(block!, atOffset: 1, lengthAtOffsetOut: &length, totalLengthOut: &total, dataPointerOut: &pointer)
                    == noErr)
            #expect(length == 3 && total == 6 && pointer?.pointee == 2)
            #expect(CMBlockBufferCopyDataBytes(block!, atOffset: 4, dataLength: 4, destination: &out) == kCMBlockBufferBadLengthParameterErr)
            var tooFar: UnsafeMutablePointer<CChar>?
            #expect(
                CMBlockBufferGetDataPointer(block!, atOffset: 6, lengthAtOffsetOut: nil, totalLengthOut: nil, dataPointerOut: &tooFar)
                    == kCMBlockBufferBadOffsetParameterErr)
            // Shared, not copied: writing through the buffer changes the caller's bytes.
            #expect(CMBlockBufferFillDataBytes(with: 9, blockBuffer: block!, offsetIntoDestination: 4, dataLength: 2) == noErr)
        }
        #expect(second == [9, 9])
    }

    @Test("A PCM format description keeps its stream description and channel layout")
    func formatDescription() throws {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
            mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        var format: CMAudioFormatDescription?
        #expect(
            CMAudioFormatDescriptionCreate(
                allocator: nil, asbd: &asbd, layoutSize: MemoryLayout<AudioChannelLayout>.size, layout: &layout, magicCookieSize: 0,
                magicCookie: nil, extensions: nil, formatDescriptionOut: &format) == noErr)
        let made = try #require(format)
        #expect(made.mediaType == .audio && made.mediaSubType == .linearPCM)
        #expect(CMFormatDescriptionGetMediaType(made) == kCMMediaType_Audio)
        let stream = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(made))
        #expect(stream.pointee.mSampleRate == 44_100 && stream.pointee.mChannelsPerFrame == 2)
        var size = 0
        let gotLayout = try #require(CMAudioFormatDescriptionGetChannelLayout(made, sizeOut: &size))
        #expect(gotLayout.pointee.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo && size == 32)
        let same = try CMAudioFormatDescription(
            audioStreamBasicDescription: asbd, layoutSize: MemoryLayout<AudioChannelLayout>.size, layout: &layout)
        #expect(CMFormatDescriptionEqual(made, otherFormatDescription: same))
        var bad = AudioStreamBasicDescription()
        var none: CMAudioFormatDescription?
        #expect(
            CMAudioFormatDescriptionCreate(
                allocator: nil, asbd: &bad, layoutSize: 0, layout: nil, magicCookieSize: 0, magicCookie: nil, extensions: nil,
                formatDescriptionOut: &none) == kCMFormatDescriptionError_InvalidParameter)
    }

    @Test("A PCM sample buffer gives its samples, timing and buffer list as Core Media does")
    func pcmSampleBuffer() throws {
        let samples: [Int16] = (0..<480).map { Int16($0) - 240 }
        let sample = try makePCM(samples, at: CMTime(value: 96_000, timescale: 48_000))
        #expect(CMSampleBufferGetNumSamples(sample) == 480)
        #expect(CMSampleBufferGetDuration(sample) == CMTime(value: 480, timescale: 48_000))
        #expect(CMSampleBufferGetTotalSampleSize(sample) == 960 && CMSampleBufferGetSampleSize(sample, at: 3) == 2)
        var timing = CMSampleTimingInfo()
        #expect(CMSampleBufferGetSampleTimingInfo(sample, at: 10, timingInfoOut: &timing) == noErr)
        #expect(timing.presentationTimeStamp == CMTime(value: 96_010, timescale: 48_000))
        #expect(timing.duration == CMTime(value: 1, timescale: 48_000))
        #expect(CMSampleBufferGetDataBuffer(sample).map(CMBlockBufferGetDataLength) == 960)
        var needed = 0
        #expect(
            CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                sample, bufferListSizeNeededOut: &needed, bufferListOut: nil, bufferListSize: 0, blockBufferAllocator: nil,
                blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil) == noErr)
        #expect(needed == MemoryLayout<AudioBufferList>.size)
        var list = AudioBufferList()
        var block: CMBlockBuffer?
        #expect(
            CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                sample, bufferListSizeNeededOut: nil, bufferListOut: &list, bufferListSize: MemoryLayout<AudioBufferList>.size,
                blockBufferAllocator: nil, blockBufferMemoryAllocator: nil,
                flags: UInt32(kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment), blockBufferOut: &block) == noErr)
        #expect(block != nil && list.mNumberBuffers == 1 && list.mBuffers.mNumberChannels == 1 && list.mBuffers.mDataByteSize == 960)
        let read = UnsafeBufferPointer(start: list.mBuffers.mData!.assumingMemoryBound(to: Int16.self), count: 480)
        #expect(Array(read) == samples)
        var part = [Int16](repeating: 0, count: 4)
        try part.withUnsafeMutableBytes { raw in
            var target = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 8, mData: raw.baseAddress))
            #expect(CMSampleBufferCopyPCMDataIntoAudioBufferList(sample, at: 100, frameCount: 4, into: &target) == noErr)
            #expect(CMSampleBufferCopyPCMDataIntoAudioBufferList(sample, at: 478, frameCount: 4, into: &target) == kCMSampleBufferError_SampleIndexOutOfRange)
            _ = try #require(raw.baseAddress)
        }
        #expect(part == [-140, -139, -138, -137])
        let first = try sample.withAudioBufferList { buffers, _ in buffers[0].mData!.assumingMemoryBound(to: Int16.self).pointee }
        #expect(first == -240)
    }

    @Test("Linear PCM sample buffers refuse packet descriptions and too little data")
    func pcmRefusals() throws {
        let sample = try makePCM([1, 2, 3, 4])
        let format = try #require(CMSampleBufferGetFormatDescription(sample))
        let data = try #require(CMSampleBufferGetDataBuffer(sample))
        var made: CMSampleBuffer?
        #expect(
            CMAudioSampleBufferCreateReadyWithPacketDescriptions(
                allocator: nil, dataBuffer: data, formatDescription: format, sampleCount: 5, presentationTimeStamp: .zero,
                packetDescriptions: nil, sampleBufferOut: &made) == kCMSampleBufferError_InvalidSampleData)
        var packet = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 2)
        #expect(
            CMAudioSampleBufferCreateReadyWithPacketDescriptions(
                allocator: nil, dataBuffer: data, formatDescription: format, sampleCount: 1, presentationTimeStamp: .zero,
                packetDescriptions: &packet, sampleBufferOut: &made) == kCMSampleBufferError_InvalidMediaFormat)
        #expect(made == nil)
    }
}
