// CMSampleBuffer.h: data readiness, invalidation and output timing, spelled as iOS code
// spells them (C functions and the Swift overlay's members).
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// Touches the readiness, invalidation and output-timing declarations; compiled, never called.
func spellCMSampleBufferReadiness(_ sampleBuffer: CMSampleBuffer, pixelBuffer: CVPixelBuffer, format: CMVideoFormatDescription) throws {
    let readiness: CMSampleBuffer.DataReadiness = sampleBuffer.dataReadiness
    let cases: [CMSampleBuffer.DataReadiness] = [.ready, .notReady, .failed(kCMSampleBufferError_DataFailed)]
    try sampleBuffer.setDataReadiness(.ready)
    try sampleBuffer.makeDataReady()
    try sampleBuffer.invalidate()
    try sampleBuffer.setOutputPresentationTimeStamp(CMTime(value: 1, timescale: 30))
    let overlay: (CMTime, CMTime, [CMSampleTimingInfo], Int, [Int], Bool) = (
        sampleBuffer.outputDecodeTimeStamp, sampleBuffer.outputPresentationTimeStamp, try sampleBuffer.outputSampleTimingInfos(),
        sampleBuffer.sampleSize(at: 0), try sampleBuffer.sampleSizes(), sampleBuffer.isValid)
    let made: CMSampleBuffer = try CMSampleBuffer(imageBuffer: pixelBuffer, formatDescription: format, sampleTiming: CMSampleTimingInfo())
    var failure: OSStatus = 0
    let c: (OSStatus, OSStatus, Bool, OSStatus, OSStatus, OSStatus, CMTime) = (
        CMSampleBufferSetDataReady(sampleBuffer), CMSampleBufferSetDataFailed(sampleBuffer, status: kCMSampleBufferError_DataFailed),
        CMSampleBufferHasDataFailed(sampleBuffer, statusOut: &failure), CMSampleBufferMakeDataReady(sampleBuffer),
        CMSampleBufferInvalidate(sampleBuffer), CMSampleBufferSetOutputPresentationTimeStamp(sampleBuffer, newValue: .invalid),
        CMSampleBufferGetOutputDecodeTimeStamp(sampleBuffer))
    var needed: CMItemCount = 0
    var timings = [CMSampleTimingInfo](repeating: .invalid, count: 1)
    var sizes = [Int](repeating: 0, count: 1)
    var copy: CMSampleBuffer?
    let arrays: (OSStatus, OSStatus, OSStatus) = (
        CMSampleBufferGetOutputSampleTimingInfoArray(sampleBuffer, entryCount: 1, arrayToFill: &timings, entriesNeededOut: &needed),
        CMSampleBufferGetSampleSizeArray(sampleBuffer, entryCount: 1, arrayToFill: &sizes, entriesNeededOut: &needed),
        CMSampleBufferCreateCopy(allocator: kCFAllocatorDefault, sampleBuffer: sampleBuffer, sampleBufferOut: &copy))
    let errors: [OSStatus] = [kCMSampleBufferError_BufferNotReady, kCMSampleBufferError_Invalidated, kCMSampleBufferError_BufferHasNoSampleSizes, paramErr]
    _ = (readiness, cases, overlay, made, c, arrays, errors, readiness == .ready)
}

/// A C callback cannot capture: the refcon points at this.
final class MakeReadyCounter: @unchecked Sendable {
    var calls = 0
    var answer: OSStatus = noErr
}

@Suite("CMSampleBuffer readiness spelling")
struct CMSampleBufferReadinessSpellingTests {
    func makeFrame(dataReady: Bool = true, counter: MakeReadyCounter? = nil) throws -> CMSampleBuffer {
        var pixels: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 32, 16, kCVPixelFormatType_32BGRA, nil, &pixels)
        var format: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels!, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: CMTime(value: 90, timescale: 30), decodeTimeStamp: .invalid)
        var made: CMSampleBuffer?
        let refcon = counter.map { Unmanaged.passUnretained($0).toOpaque() }
        let status = CMSampleBufferCreateForImageBuffer(
            allocator: nil, imageBuffer: pixels!, dataReady: dataReady,
            makeDataReadyCallback: counter == nil ? nil : { _, refcon in
                let counter = Unmanaged<MakeReadyCounter>.fromOpaque(refcon!).takeUnretainedValue()
                counter.calls += 1
                return counter.answer
            }, refcon: refcon, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &made)
        #expect(status == noErr)
        return try #require(made)
    }

    @Test("a buffer made not ready becomes ready through its make-data-ready callback, which runs once")
    func makeDataReadyCallsTheCallback() throws {
        let counter = MakeReadyCounter()
        let frame = try makeFrame(dataReady: false, counter: counter)
        #expect(frame.dataReadiness == .notReady)
        #expect(!CMSampleBufferDataIsReady(frame))
        counter.answer = -1
        #expect(CMSampleBufferMakeDataReady(frame) == kCMSampleBufferError_BufferNotReady)
        #expect(frame.dataReadiness == .notReady)
        counter.answer = noErr
        try frame.makeDataReady()
        #expect(frame.dataReadiness == .ready && CMSampleBufferDataIsReady(frame))
        try frame.makeDataReady()
        #expect(counter.calls == 2, "a ready buffer does not call the callback again")
        #expect(throws: (any Error).self) { try frame.setDataReadiness(.notReady) }
    }

    @Test("without a callback a not-ready buffer cannot be made ready, but can be set ready or failed")
    func setReadyAndFailed() throws {
        let frame = try makeFrame(dataReady: false)
        #expect(throws: (any Error).self) { try frame.makeDataReady() }
        try frame.setDataReadiness(.failed(kCMSampleBufferError_DataFailed))
        var status: OSStatus = 0
        #expect(CMSampleBufferHasDataFailed(frame, statusOut: &status) && status == kCMSampleBufferError_DataFailed)
        #expect(frame.dataReadiness == .failed(kCMSampleBufferError_DataFailed))
        #expect(CMSampleBufferSetDataReady(frame) == noErr)
        #expect(frame.dataReadiness == .ready && !CMSampleBufferHasDataFailed(frame, statusOut: nil))
    }

    @Test("invalidating a buffer makes it invalid; its timing then reports the error")
    func invalidate() throws {
        let frame = try makeFrame()
        #expect(frame.isValid && CMSampleBufferIsValid(frame))
        try frame.invalidate()
        #expect(!frame.isValid && !CMSampleBufferIsValid(frame))
        var needed: CMItemCount = 0
        #expect(CMSampleBufferGetSampleTimingInfoArray(frame, entryCount: 0, arrayToFill: nil, entriesNeededOut: &needed) == kCMSampleBufferError_Invalidated)
        #expect(throws: (any Error).self) { try frame.outputSampleTimingInfos() }
        #expect(CMSampleBufferMakeDataReady(frame) == kCMSampleBufferError_Invalidated)
    }

    @Test("the output presentation time follows the presentation time until set; invalid restores it")
    func outputPresentationTime() throws {
        let frame = try makeFrame()
        #expect(frame.outputPresentationTimeStamp == CMTime(value: 90, timescale: 30))
        try frame.setOutputPresentationTimeStamp(CMTime(value: 5, timescale: 1))
        #expect(frame.outputPresentationTimeStamp == CMTime(value: 5, timescale: 1))
        #expect(CMSampleBufferGetOutputPresentationTimeStamp(frame) == CMTime(value: 5, timescale: 1))
        #expect(frame.presentationTimeStamp == CMTime(value: 90, timescale: 30), "the presentation time itself is unchanged")
        let output = try frame.outputSampleTimingInfos()
        #expect(output.count == 1 && output[0].presentationTimeStamp == CMTime(value: 5, timescale: 1))
        #expect(!frame.outputDecodeTimeStamp.isValid, "capture buffers have no decode time")
        #expect(CMSampleBufferSetOutputPresentationTimeStamp(frame, newValue: .invalid) == noErr)
        #expect(frame.outputPresentationTimeStamp == CMTime(value: 90, timescale: 30))
    }

    @Test("image buffers have no sample sizes; a copy keeps image and timing")
    func sizesAndCopy() throws {
        let frame = try makeFrame()
        #expect(frame.sampleSize(at: 0) == 0)
        #expect(throws: (any Error).self) { try frame.sampleSizes() }
        #expect(CMSampleBufferGetSampleSizeArray(frame, entryCount: 0, arrayToFill: nil, entriesNeededOut: nil) == kCMSampleBufferError_BufferHasNoSampleSizes)
        var copy: CMSampleBuffer?
        #expect(CMSampleBufferCreateCopy(allocator: nil, sampleBuffer: frame, sampleBufferOut: &copy) == noErr)
        #expect(copy?.imageBuffer === frame.imageBuffer)
        #expect(copy?.presentationTimeStamp == frame.presentationTimeStamp && copy?.duration == frame.duration)
        #expect(copy !== frame)
        let made = try CMSampleBuffer(
            imageBuffer: frame.imageBuffer!, formatDescription: frame.formatDescription!,
            sampleTiming: CMSampleTimingInfo(duration: .invalid, presentationTimeStamp: CMTime(value: 3, timescale: 1), decodeTimeStamp: .invalid))
        #expect(made.presentationTimeStamp == CMTime(value: 3, timescale: 1) && made.dataReadiness == .ready)
        var other: CVPixelBuffer?
        CVPixelBufferCreate(nil, 8, 8, kCVPixelFormatType_32BGRA, nil, &other)
        #expect(throws: (any Error).self) {
            _ = try CMSampleBuffer(imageBuffer: other!, formatDescription: frame.formatDescription!, sampleTiming: CMSampleTimingInfo())
        }
    }
}
