// CMSampleBuffer.h's generic creation and copies, and the overlay's initializers, spelled as iOS code spells them.
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches the creation and copy declarations; compiled, never called.
func spellCMSampleBufferCreate(
    _ sampleBuffer: CMSampleBuffer, block: CMBlockBuffer, format: CMFormatDescription, pixelBuffer: CVPixelBuffer, video: CMVideoFormatDescription,
    list: UnsafeMutablePointer<AudioBufferList>
) throws {
    var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
    var size = 2
    var made: CMSampleBuffer?
    let s1: OSStatus = CMSampleBufferCreate(
        allocator: kCFAllocatorDefault, dataBuffer: block, dataReady: true, makeDataReadyCallback: nil, refcon: nil, formatDescription: format,
        sampleCount: 1024, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
        sampleBufferOut: &made)
    let s2: OSStatus = CMSampleBufferCreateReady(
        allocator: kCFAllocatorDefault, dataBuffer: block, formatDescription: format, sampleCount: 1024, sampleTimingEntryCount: 1,
        sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size, sampleBufferOut: &made)
    let s3: OSStatus = CMSampleBufferCreateCopyWithNewTiming(
        allocator: kCFAllocatorDefault, sampleBuffer: sampleBuffer, sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleBufferOut: &made)
    let s4: OSStatus = CMSampleBufferSetDataBuffer(sampleBuffer, dataBuffer: block)
    let generic: CMSampleBuffer = try CMSampleBuffer(
        dataBuffer: block, formatDescription: format, numSamples: 1024, sampleTimings: [timing], sampleSizes: [2])
    let pending: CMSampleBuffer = try CMSampleBuffer(
        dataBuffer: nil, dataReady: false, formatDescription: format, numSamples: 1024, sampleTimings: [timing], sampleSizes: [2],
        makeDataReadyHandler: { _ in noErr })
    let audio: CMSampleBuffer = try CMSampleBuffer(
        dataBuffer: block, formatDescription: format, numSamples: 1024, presentationTimeStamp: .zero, packetDescriptions: [])
    let lateAudio: CMSampleBuffer = try CMSampleBuffer(
        dataBuffer: nil, formatDescription: format, numSamples: 1024, presentationTimeStamp: .zero, packetDescriptions: [],
        makeDataReadyHandler: { _ in noErr })
    let lateImage: CMSampleBuffer = try CMSampleBuffer(
        imageBuffer: pixelBuffer, formatDescription: video, sampleTiming: timing, makeDataReadyHandler: { (_: CMSampleBuffer) -> OSStatus in noErr })
    let copy: CMSampleBuffer = try CMSampleBuffer(copying: sampleBuffer)
    let retimed: CMSampleBuffer = try CMSampleBuffer(copying: sampleBuffer, withNewTiming: [timing])
    let range: CMSampleBuffer = try CMSampleBuffer(copying: sampleBuffer, forRange: 0..<1)
    let singles: CMSampleBuffer.SingleSampleBuffers = try sampleBuffer.singleSampleBuffers()
    for single in singles { _ = single.numSamples }
    try sampleBuffer.setDataBuffer(block)
    try sampleBuffer.setDataBuffer(fromAudioBufferList: list, blockBufferMemoryAllocator: kCFAllocatorDefault, flags: [.audioBufferListAssure16ByteAlignment])
    try sampleBuffer.copyPCMData(fromRange: 0..<512, into: list)
    let packets: [AudioStreamPacketDescription] = try sampleBuffer.audioStreamPacketDescriptions()
    let count: Int = try sampleBuffer.withUnsafeAudioStreamPacketDescriptions { $0.count }
    let listed: Int = try sampleBuffer.withAudioBufferList(blockBufferMemoryAllocator: kCFAllocatorDefault, flags: []) { buffers, _ in buffers.count }
    let times: (CMTime, CMTime, [CMSampleTimingInfo]) = (sampleBuffer.decodeTimeStamp, CMSampleBufferGetDecodeTimeStamp(sampleBuffer), try sampleBuffer.sampleTimingInfos())
    let handler: CMSampleBufferMakeDataReadyHandler = { _ in noErr }
    _ = (s1, s2, s3, s4, generic, pending, audio, lateAudio, lateImage, copy, retimed, range, packets, count, listed, times, handler)
}

@Suite("CMSampleBuffer creation spelling")
struct CMSampleBufferCreateSpellingTests {
    @Test("the overlay's audio initializer and a re-timing copy keep every frame")
    func overlayAudio() throws {
        let asbd = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let format = try CMAudioFormatDescription(audioStreamBasicDescription: asbd)
        let block = try CMBlockBuffer(length: 441 * 8, flags: .assureMemoryNow)
        try block.fillDataBytes(with: 1)
        let audio = try CMSampleBuffer(dataBuffer: block, formatDescription: format, numSamples: 441, presentationTimeStamp: .zero, packetDescriptions: [])
        #expect(audio.duration == CMTime(value: 441, timescale: 44_100))
        let later = try CMSampleBuffer(
            copying: audio,
            withNewTiming: [CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 44_100), presentationTimeStamp: CMTime(value: 3, timescale: 1), decodeTimeStamp: .invalid)])
        #expect(later.numSamples == 441 && later.presentationTimeStamp == CMTime(value: 3, timescale: 1))
        #expect(later.duration == audio.duration)
        #expect(try later.dataBuffer?.dataBytes() == Data(repeating: 1, count: 441 * 8))
        #expect(try later.sampleSizes().allSatisfy { $0 == 8 })
        let copied = try CMSampleBuffer(copying: later)
        #expect(copied.presentationTimeStamp == later.presentationTimeStamp && copied.numSamples == 441)
    }
}
