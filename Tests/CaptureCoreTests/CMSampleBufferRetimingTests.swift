import Foundation
import Testing

@testable import CaptureCore

/// CMSampleBufferCreateCopyWithNewTiming, CMSampleBufferCreate and copies of sample ranges.
@Suite("CMSampleBuffer re-timing and generic creation")
struct CMSampleBufferRetimingTests {
    static let rate: Float64 = 48_000

    static var monoFormat: CMAudioFormatDescription {
        let asbd = AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        return try! CMAudioFormatDescription(audioStreamBasicDescription: asbd)
    }

    static func block(_ bytes: [UInt8]) -> CMBlockBuffer {
        var block: CMBlockBuffer?
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: bytes.count, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: bytes.count, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block)
        bytes.withUnsafeBytes { _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: bytes.count) }
        return block!
    }

    /// A microphone buffer: `frames` 16-bit mono frames (byte i is i % 251) at `pts`.
    static func microphone(frames: Int = 1024, at pts: CMTime = CMTime(value: 480, timescale: 48_000)) -> CMSampleBuffer {
        var made: CMSampleBuffer?
        let status = CMAudioSampleBufferCreateReadyWithPacketDescriptions(
            allocator: nil, dataBuffer: block((0..<frames * 2).map { UInt8($0 % 251) }), formatDescription: monoFormat,
            sampleCount: frames, presentationTimeStamp: pts, packetDescriptions: nil, sampleBufferOut: &made)
        precondition(status == noErr)
        return made!
    }

    static func bytes(_ buffer: CMSampleBuffer) -> [UInt8] {
        guard let data = buffer.dataBuffer else { return [] }
        var out = [UInt8](repeating: 0, count: data.dataLength)
        out.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: data.dataLength, destination: $0.baseAddress!) }
        return out
    }

    static func retime(_ buffer: CMSampleBuffer, _ timings: [CMSampleTimingInfo]) -> (OSStatus, CMSampleBuffer?) {
        var copy: CMSampleBuffer?
        let status = timings.withUnsafeBufferPointer {
            CMSampleBufferCreateCopyWithNewTiming(
                allocator: nil, sampleBuffer: buffer, sampleTimingEntryCount: $0.count, sampleTimingArray: $0.baseAddress, sampleBufferOut: &copy)
        }
        return (status, copy)
    }

    @Test("a re-timed microphone buffer keeps its data, sample count and format, at the new time, lasting its frames")
    func retimeAudio() throws {
        let mic = Self.microphone()
        CMSetAttachment(mic, key: "Propagating", value: "yes", attachmentMode: kCMAttachmentMode_ShouldPropagate)
        CMSetAttachment(mic, key: "Local", value: "no", attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
        // NextLevel and Flutter pass the whole buffer's duration in the one entry.
        let newTime = CMTime(value: 10 * 48_000, timescale: 48_000)
        let (status, made) = Self.retime(mic, [CMSampleTimingInfo(duration: mic.duration, presentationTimeStamp: newTime, decodeTimeStamp: .invalid)])
        #expect(status == noErr)
        let copy = try #require(made)
        #expect(copy.numSamples == 1024)
        #expect(copy.dataBuffer === mic.dataBuffer, "the copy shares the data buffer")
        #expect(Self.bytes(copy) == Self.bytes(mic))
        #expect(copy.formatDescription == mic.formatDescription)
        #expect(copy.presentationTimeStamp == newTime)
        #expect(copy.duration == CMTime(value: 1024, timescale: 48_000))
        #expect(copy.dataReadiness == .ready && CMSampleBufferDataIsReady(copy))
        #expect(CMSampleBufferGetTotalSampleSize(copy) == 2048)
        #expect(CMGetAttachment(copy, key: "Propagating", attachmentModeOut: nil) as? String == "yes")
        #expect(CMGetAttachment(copy, key: "Local", attachmentModeOut: nil) == nil, "only propagating attachments are copied")
        var timing = CMSampleTimingInfo()
        #expect(CMSampleBufferGetSampleTimingInfo(copy, at: 1023, timingInfoOut: &timing) == noErr)
        #expect(timing.presentationTimeStamp == newTime + CMTime(value: 1023, timescale: 48_000))
        #expect(mic.presentationTimeStamp == CMTime(value: 480, timescale: 48_000), "the original keeps its timing")
    }

    @Test("one timing entry per sample is taken as given; other counts are refused")
    func entryCounts() throws {
        let mic = Self.microphone(frames: 4)
        let each = (0..<4).map {
            CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: CMTime(value: 100 + Int64($0), timescale: 48_000), decodeTimeStamp: .invalid)
        }
        let (status, made) = Self.retime(mic, each)
        #expect(status == noErr)
        let copy = try #require(made)
        #expect(copy.presentationTimeStamp == CMTime(value: 100, timescale: 48_000))
        #expect(copy.duration == CMTime(value: 4, timescale: 48_000))
        #expect(try copy.sampleTimingInfos().count == 4)
        #expect(Self.retime(mic, Array(each.prefix(2))).0 == kCMSampleBufferError_InvalidEntryCount)
        var copyOut: CMSampleBuffer?
        #expect(CMSampleBufferCreateCopyWithNewTiming(
            allocator: nil, sampleBuffer: mic, sampleTimingEntryCount: 1, sampleTimingArray: nil, sampleBufferOut: &copyOut)
            == kCMSampleBufferError_RequiredParameterMissing)
        let (noneStatus, none) = Self.retime(mic, [])
        #expect(noneStatus == noErr)
        #expect(none?.presentationTimeStamp == .invalid && none?.numSamples == 4)
        var needed = 0
        #expect(CMSampleBufferGetSampleTimingInfoArray(none!, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed)
            == kCMSampleBufferError_BufferHasNoSampleTimingInfo)
        var small = [CMSampleTimingInfo](repeating: .invalid, count: 2)
        #expect(CMSampleBufferGetSampleTimingInfoArray(copy, entryCount: 2, arrayToFill: &small, entriesNeededOut: &needed) == kCMSampleBufferError_ArrayTooSmall)
        #expect(needed == 4)
    }

    @Test("compressed audio keeps its packet descriptions through a re-timing")
    func retimeCompressedAudio() throws {
        let asbd = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1024,
            mBytesPerFrame: 0, mChannelsPerFrame: 1, mBitsPerChannel: 0, mReserved: 0)
        let format = try CMAudioFormatDescription(audioStreamBasicDescription: asbd)
        let packets = [
            AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 6),
            AudioStreamPacketDescription(mStartOffset: 6, mVariableFramesInPacket: 0, mDataByteSize: 4),
        ]
        let aac = try CMSampleBuffer(
            dataBuffer: Self.block(Array(0..<10)), formatDescription: format, numSamples: 2, presentationTimeStamp: .zero, packetDescriptions: packets)
        let (status, made) = Self.retime(aac, [CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: CMTime(value: 5, timescale: 1), decodeTimeStamp: .invalid)])
        #expect(status == noErr)
        let copy = try #require(made)
        #expect(try copy.audioStreamPacketDescriptions().map(\.mDataByteSize) == [6, 4])
        #expect(copy.duration == CMTime(value: 2048, timescale: 48_000))
        #expect(try copy.sampleSizes() == [6, 4])
        let second = try CMSampleBuffer(copying: copy, forRange: 1..<2)
        #expect(Self.bytes(second) == [6, 7, 8, 9])
        #expect(second.presentationTimeStamp == CMTime(value: 5, timescale: 1) + CMTime(value: 1024, timescale: 48_000))
    }

    @Test("a re-timed video frame keeps its decode time; capture frames have none")
    func decodeTimeStamp() throws {
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(nil, 16, 16, kCVPixelFormatType_32BGRA, nil, &pixels)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescriptionOut: &format)
        let frame = try CMSampleBuffer(
            imageBuffer: pixels!, formatDescription: format!,
            sampleTiming: CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: .zero, decodeTimeStamp: .invalid))
        #expect(frame.decodeTimeStamp == .invalid)
        try frame.setOutputPresentationTimeStamp(CMTime(value: 9, timescale: 1))
        let timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 4, timescale: 30), decodeTimeStamp: CMTime(value: 3, timescale: 30))
        let (status, made) = Self.retime(frame, [timing])
        #expect(status == noErr)
        let copy = try #require(made)
        #expect(copy.decodeTimeStamp == CMTime(value: 3, timescale: 30))
        #expect(CMSampleBufferGetDecodeTimeStamp(copy) == CMTime(value: 3, timescale: 30))
        #expect(copy.outputPresentationTimeStamp == CMTime(value: 4, timescale: 30), "the output time is not copied")
        #expect(copy.imageBuffer === pixels)
        #expect(try copy.sampleTimingInfos() == [timing])
        #expect(Self.retime(frame, [timing, timing]).0 == kCMSampleBufferError_InvalidEntryCount)
    }

    @Test("CMSampleBufferCreate: out-of-order video frames take per-sample timing and sizes; the buffer's times are the earliest")
    func createOutOfOrder() throws {
        let pts: [Int64] = [12012, 10010, 11011, 15015, 13013, 14014]
        let timings = pts.enumerated().map {
            CMSampleTimingInfo(
                duration: CMTime(value: 1001, timescale: 30000), presentationTimeStamp: CMTime(value: $0.element, timescale: 30000),
                decodeTimeStamp: CMTime(value: 10010 + 1001 * Int64($0.offset), timescale: 30000))
        }
        let sizes = [3, 1, 1, 4, 1, 2]
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_H264, width: 64, height: 48, extensions: nil, formatDescriptionOut: &format)
        var made: CMSampleBuffer?
        let status = CMSampleBufferCreateReady(
            allocator: nil, dataBuffer: Self.block(Array(0..<12)), formatDescription: format, sampleCount: 6, sampleTimingEntryCount: 6,
            sampleTimingArray: timings, sampleSizeEntryCount: 6, sampleSizeArray: sizes, sampleBufferOut: &made)
        #expect(status == noErr)
        let buffer = try #require(made)
        #expect(buffer.numSamples == 6)
        #expect(buffer.presentationTimeStamp == CMTime(value: 10010, timescale: 30000))
        #expect(buffer.decodeTimeStamp == CMTime(value: 10010, timescale: 30000))
        #expect(buffer.duration == CMTime(value: 6006, timescale: 30000))
        #expect(try buffer.sampleSizes() == sizes && CMSampleBufferGetTotalSampleSize(buffer) == 12)
        var fourth = CMSampleTimingInfo()
        #expect(CMSampleBufferGetSampleTimingInfo(buffer, at: 3, timingInfoOut: &fourth) == noErr && fourth == timings[3])
        let singles = Array(try buffer.singleSampleBuffers())
        #expect(singles.count == 6)
        #expect(singles.map(\.presentationTimeStamp) == timings.map(\.presentationTimeStamp))
        #expect(Self.bytes(singles[3]) == [5, 6, 7, 8])
        #expect(singles[3].totalSampleSize == 4)
        #expect(throws: (any Error).self) { _ = try CMSampleBuffer(copying: buffer, forRange: 5..<7) }
    }

    @Test("CMSampleBufferCreate's rules: entry counts, data needed when ready, readiness made by the callback")
    func createRules() throws {
        var made: CMSampleBuffer?
        let two = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(duration: .zero, presentationTimeStamp: .zero, decodeTimeStamp: .invalid), count: 2)
        #expect(CMSampleBufferCreate(
            allocator: nil, dataBuffer: Self.block([1, 2, 3]), dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: nil,
            sampleCount: 3, sampleTimingEntryCount: 2, sampleTimingArray: two, sampleSizeEntryCount: 0, sampleSizeArray: nil, sampleBufferOut: &made)
            == kCMSampleBufferError_InvalidEntryCount)
        #expect(CMSampleBufferCreate(
            allocator: nil, dataBuffer: nil, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: nil,
            sampleCount: 3, sampleTimingEntryCount: 0, sampleTimingArray: nil, sampleSizeEntryCount: 1, sampleSizeArray: [1], sampleBufferOut: &made)
            == kCMSampleBufferError_RequiredParameterMissing)
        #expect(CMSampleBufferCreate(
            allocator: nil, dataBuffer: Self.block([1, 2, 3]), dataReady: false, makeDataReadyCallback: { _, _ in noErr }, refcon: nil,
            formatDescription: nil, sampleCount: 3, sampleTimingEntryCount: 0, sampleTimingArray: nil, sampleSizeEntryCount: 1,
            sampleSizeArray: [1], sampleBufferOut: &made) == noErr)
        let pending = try #require(made)
        #expect(pending.dataReadiness == .notReady)
        #expect(throws: (any Error).self) { _ = try pending.sampleTimingInfos() }
        try pending.makeDataReady()
        #expect(pending.dataReadiness == .ready)
    }

    @Test("linear PCM made with CMSampleBufferCreateReady: one timing and one size entry for every frame")
    func createPCM() throws {
        var made: CMSampleBuffer?
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: CMTime(value: 2, timescale: 1), decodeTimeStamp: .invalid)
        var size = 2
        #expect(CMSampleBufferCreateReady(
            allocator: nil, dataBuffer: Self.block(Array(0..<20)), formatDescription: Self.monoFormat, sampleCount: 10, sampleTimingEntryCount: 1,
            sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &made) == noErr)
        let pcm = try #require(made)
        #expect(pcm.numSamples == 10 && pcm.duration == CMTime(value: 10, timescale: 48_000))
        #expect(pcm.totalSampleSize == 20)
        let frames = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 16)
        defer { frames.deallocate() }
        var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 8, mData: frames))
        try pcm.copyPCMData(fromRange: 3..<7, into: &list)
        #expect(Array(UnsafeRawBufferPointer(start: frames, count: 8)) == Array(6..<14))
    }
}
