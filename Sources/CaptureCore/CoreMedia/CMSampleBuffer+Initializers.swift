import Foundation

// The Swift overlay's CMSampleBuffer initializers and sample-level methods: a generic or
// audio buffer, copies (with new timing, of a range of samples), one buffer per sample,
// and the audio data setters and readers. Errors are `NSOSStatusErrorDomain` NSErrors with
// the C function's status.

/// Called to make a sample buffer's data ready (`CMSampleBufferMakeDataReadyHandler`).
public typealias CMSampleBufferMakeDataReadyHandler = (CMSampleBuffer) -> OSStatus

extension CMSampleBuffer {
    /// A ready sample buffer of `numSamples` samples (`CMSampleBufferCreateReady`);
    /// `sampleTimings` and `sampleSizes` hold 0 entries, 1 for all samples, or one per sample.
    public convenience init(
        dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?, numSamples: CMItemCount,
        sampleTimings: [CMSampleTimingInfo], sampleSizes: [Int]
    ) throws {
        var state = State.empty
        try CMSampleBuffer.check(
            CMSampleBuffer.makeState(
                &state, dataBuffer: dataBuffer, dataReady: true, formatDescription: formatDescription, numSamples: numSamples,
                timings: sampleTimings, sizes: sampleSizes))
        self.init(state: state)
    }

    /// A sample buffer whose data may not be ready yet (`CMSampleBufferCreate`); `makeDataReady()`
    /// calls `makeDataReadyHandler`.
    public convenience init(
        dataBuffer: CMBlockBuffer?, dataReady: Bool = false, formatDescription: CMFormatDescription?, numSamples: CMItemCount,
        sampleTimings: [CMSampleTimingInfo], sampleSizes: [Int], makeDataReadyHandler: @escaping CMSampleBufferMakeDataReadyHandler
    ) throws {
        var state = State.empty
        try CMSampleBuffer.check(
            CMSampleBuffer.makeState(
                &state, dataBuffer: dataBuffer, dataReady: dataReady, formatDescription: formatDescription, numSamples: numSamples,
                timings: sampleTimings, sizes: sampleSizes))
        if !dataReady { state.makeDataReady = ({ buffer, _ in makeDataReadyHandler(buffer) }, nil) }
        self.init(state: state)
    }

    /// A ready audio sample buffer (`CMAudioSampleBufferCreateReadyWithPacketDescriptions`):
    /// `numSamples` frames of linear PCM (no packet descriptions) or packets of compressed
    /// audio from `presentationTimeStamp`.
    public convenience init(
        dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription, numSamples: CMItemCount, presentationTimeStamp: CMTime,
        packetDescriptions: [AudioStreamPacketDescription]
    ) throws {
        try self.init(
            audioDataBuffer: dataBuffer, dataReady: true, formatDescription: formatDescription, numSamples: numSamples,
            presentationTimeStamp: presentationTimeStamp, packetDescriptions: packetDescriptions, handler: nil)
    }

    /// An audio sample buffer whose data may not be ready yet
    /// (`CMAudioSampleBufferCreateWithPacketDescriptions`).
    public convenience init(
        dataBuffer: CMBlockBuffer?, dataReady: Bool = false, formatDescription: CMFormatDescription, numSamples: CMItemCount,
        presentationTimeStamp: CMTime, packetDescriptions: [AudioStreamPacketDescription],
        makeDataReadyHandler: @escaping CMSampleBufferMakeDataReadyHandler
    ) throws {
        try self.init(
            audioDataBuffer: dataBuffer, dataReady: dataReady, formatDescription: formatDescription, numSamples: numSamples,
            presentationTimeStamp: presentationTimeStamp, packetDescriptions: packetDescriptions, handler: makeDataReadyHandler)
    }

    private convenience init(
        audioDataBuffer: CMBlockBuffer?, dataReady: Bool, formatDescription: CMFormatDescription, numSamples: CMItemCount,
        presentationTimeStamp: CMTime, packetDescriptions: [AudioStreamPacketDescription], handler: CMSampleBufferMakeDataReadyHandler?
    ) throws {
        var made: CMSampleBuffer?
        let status = packetDescriptions.withUnsafeBufferPointer { packets in
            CMAudioSampleBufferCreateWithPacketDescriptions(
                allocator: nil, dataBuffer: audioDataBuffer, dataReady: dataReady,
                makeDataReadyCallback: handler.map { handler in { buffer, _ in handler(buffer) } }, refcon: nil,
                formatDescription: formatDescription, sampleCount: numSamples, presentationTimeStamp: presentationTimeStamp,
                packetDescriptions: packets.isEmpty ? nil : packets.baseAddress, sampleBufferOut: &made)
        }
        try CMSampleBuffer.check(status)
        self.init(state: made!.stateSnapshot)
    }

    /// A sample buffer holding `imageBuffer` whose data may not be ready yet
    /// (`CMSampleBufferCreateForImageBuffer`).
    public convenience init(
        imageBuffer: CVImageBuffer, dataReady: Bool = false, formatDescription: CMVideoFormatDescription, sampleTiming: CMSampleTimingInfo,
        makeDataReadyHandler: @escaping CMSampleBufferMakeDataReadyHandler
    ) throws {
        try self.init(imageBuffer: imageBuffer, formatDescription: formatDescription, sampleTiming: sampleTiming)
        if !dataReady { startNotReady({ buffer, _ in makeDataReadyHandler(buffer) }, refcon: nil) }
    }

    /// A copy of `sampleBuffer` (`CMSampleBufferCreateCopy`).
    public convenience init(copying sampleBuffer: CMSampleBuffer) throws {
        try CMSampleBuffer.check(sampleBuffer.isValid ? noErr : kCMSampleBufferError_Invalidated)
        self.init(state: sampleBuffer.copiedState(keepingOutputTime: true))
    }

    /// A copy of `sampleBuffer` with new timing (`CMSampleBufferCreateCopyWithNewTiming`).
    public convenience init(copying sampleBuffer: CMSampleBuffer, withNewTiming sampleTimings: [CMSampleTimingInfo]) throws {
        var made: CMSampleBuffer?
        let status = sampleTimings.withUnsafeBufferPointer {
            CMSampleBufferCreateCopyWithNewTiming(
                allocator: nil, sampleBuffer: sampleBuffer, sampleTimingEntryCount: $0.count, sampleTimingArray: $0.baseAddress,
                sampleBufferOut: &made)
        }
        try CMSampleBuffer.check(status)
        self.init(state: made!.stateSnapshot)
    }

    /// A buffer of samples `range` of `sampleBuffer`, sharing its data
    /// (`CMSampleBufferCopySampleBufferForRange`): their timing, sizes, packets and attachments.
    /// Throws `kCMSampleBufferError_SampleIndexOutOfRange` for a range outside the buffer,
    /// `kCMSampleBufferError_CannotSubdivide` for non-interleaved audio.
    public convenience init(copying sampleBuffer: CMSampleBuffer, forRange range: Range<Int>) throws {
        var state = State.empty
        try CMSampleBuffer.check(sampleBuffer.rangeState(range, into: &state))
        self.init(state: state)
    }

    /// One sample buffer per sample, sharing this buffer's data, as the Swift overlay's
    /// `CMSampleBuffer.SingleSampleBuffers`.
    public struct SingleSampleBuffers: Sequence {
        let buffer: CMSampleBuffer
        let count: Int

        public struct Iterator: IteratorProtocol {
            let buffer: CMSampleBuffer
            let count: Int
            var index = 0

            public mutating func next() -> CMSampleBuffer? {
                guard index < count else { return nil }
                defer { index += 1 }
                return try? CMSampleBuffer(copying: buffer, forRange: index..<index + 1)
            }
        }

        public func makeIterator() -> Iterator { Iterator(buffer: buffer, count: count) }
    }

    /// Every sample as a buffer of its own (each made as it is reached); throws when the
    /// buffer cannot be split (`kCMSampleBufferError_CannotSubdivide`) or is invalid.
    public func singleSampleBuffers() throws -> SingleSampleBuffers {
        try CMSampleBuffer.check(isValid ? noErr : kCMSampleBufferError_Invalidated)
        let count = numSamples
        if count > 0 { _ = try CMSampleBuffer(copying: self, forRange: 0..<1) }
        return SingleSampleBuffers(buffer: self, count: count)
    }

    /// Gives a buffer made without data its data buffer (`CMSampleBufferSetDataBuffer`).
    public func setDataBuffer(_ dataBuffer: CMBlockBuffer) throws {
        try CMSampleBuffer.check(CMSampleBufferSetDataBuffer(self, dataBuffer: dataBuffer))
    }

    /// Gives an audio buffer made without data a copy of `bufferList`'s audio
    /// (`CMSampleBufferSetDataBufferFromAudioBufferList`).
    public func setDataBuffer(
        fromAudioBufferList bufferList: UnsafePointer<AudioBufferList>, blockBufferMemoryAllocator: AnyObject? = kCFAllocatorDefault,
        flags: CMSampleBuffer.Flags = []
    ) throws {
        try CMSampleBuffer.check(
            CMSampleBufferSetDataBufferFromAudioBufferList(
                self, blockBufferAllocator: nil, blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue,
                bufferList: bufferList))
    }

    /// Copies frames `range` of linear PCM into `bufferList`
    /// (`CMSampleBufferCopyPCMDataIntoAudioBufferList`).
    public func copyPCMData(fromRange range: Range<Int>, into bufferList: UnsafeMutablePointer<AudioBufferList>) throws {
        guard let start = Int32(exactly: range.lowerBound), let count = Int32(exactly: range.count) else {
            throw NSError(domain: "NSOSStatusErrorDomain", code: Int(kCMSampleBufferError_SampleIndexOutOfRange))
        }
        try CMSampleBuffer.check(CMSampleBufferCopyPCMDataIntoAudioBufferList(self, at: start, frameCount: count, into: bufferList))
    }

    /// Where each packet of compressed audio lies; empty for linear PCM and image buffers.
    public func audioStreamPacketDescriptions() throws -> [AudioStreamPacketDescription] {
        try CMSampleBuffer.check(isValid ? noErr : kCMSampleBufferError_Invalidated)
        return packetDescriptions
    }

    /// Calls `body` with the packet descriptions (see `audioStreamPacketDescriptions()`).
    public func withUnsafeAudioStreamPacketDescriptions<R>(_ body: (UnsafeBufferPointer<AudioStreamPacketDescription>) throws -> R) throws -> R {
        try audioStreamPacketDescriptions().withUnsafeBufferPointer(body)
    }
}
