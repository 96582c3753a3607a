import Foundation

// CMSampleBuffer.h's generic creation and copying: a data buffer of samples with timing
// and size entries (CMSampleBufferCreate), and copies with new timing or of a range of
// samples. Timing and size arrays hold 0 entries, 1 (it applies to every sample) or one
// per sample. None of this runs per captured frame.

/// Makes a sample buffer of `numSamples` samples in `dataBuffer` described by
/// `formatDescription`, with timing and size entries (each array: 0 entries, 1 for all
/// samples, or one per sample, else `kCMSampleBufferError_InvalidEntryCount`; a count with
/// a nil array gives `kCMSampleBufferError_RequiredParameterMissing`). With `dataReady`
/// false the buffer starts not ready and `CMSampleBufferMakeDataReady` calls
/// `makeDataReadyCallback`; `dataReady` true needs a data buffer unless there are no samples.
///
/// The buffer's presentation and decode times are the earliest of its samples', its
/// duration their sum (one entry: its duration times the sample count). For audio whose
/// format fixes a packet's duration (frames per packet / sample rate), that duration is
/// each sample's, whatever the entry says. Compressed audio needs its sizes, from which
/// its packet descriptions are made.
@discardableResult
public func CMSampleBufferCreate(
    allocator: AnyObject?, dataBuffer: CMBlockBuffer?, dataReady: Bool, makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?,
    refcon: UnsafeMutableRawPointer?, formatDescription: CMFormatDescription?, sampleCount numSamples: CMItemCount,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleSizeEntryCount numSampleSizeEntries: CMItemCount, sampleSizeArray: UnsafePointer<Int>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    if numSampleTimingEntries > 0 && sampleTimingArray == nil { return kCMSampleBufferError_RequiredParameterMissing }
    if numSampleSizeEntries > 0 && sampleSizeArray == nil { return kCMSampleBufferError_RequiredParameterMissing }
    guard numSampleTimingEntries >= 0, numSampleSizeEntries >= 0 else { return kCMSampleBufferError_InvalidEntryCount }
    let timings = sampleTimingArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleTimingEntries)) } ?? []
    let sizes = sampleSizeArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleSizeEntries)) } ?? []
    var state = CMSampleBuffer.State.empty
    let status = CMSampleBuffer.makeState(
        &state, dataBuffer: dataBuffer, dataReady: dataReady, formatDescription: formatDescription, numSamples: numSamples,
        timings: timings, sizes: sizes)
    guard status == noErr else { return status }
    if !dataReady { state.makeDataReady = makeDataReadyCallback.map { ($0, refcon) } }
    sampleBufferOut.pointee = CMSampleBuffer(state: state)
    return noErr
}

/// Makes a ready sample buffer (`CMSampleBufferCreate` with `dataReady` true).
@discardableResult
public func CMSampleBufferCreateReady(
    allocator: AnyObject?, dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?, sampleCount numSamples: CMItemCount,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount, sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?,
    sampleSizeEntryCount numSampleSizeEntries: CMItemCount, sampleSizeArray: UnsafePointer<Int>?,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreate(
        allocator: allocator, dataBuffer: dataBuffer, dataReady: true, makeDataReadyCallback: nil, refcon: nil,
        formatDescription: formatDescription, sampleCount: numSamples, sampleTimingEntryCount: numSampleTimingEntries,
        sampleTimingArray: sampleTimingArray, sampleSizeEntryCount: numSampleSizeEntries, sampleSizeArray: sampleSizeArray,
        sampleBufferOut: sampleBufferOut)
}

/// A copy of `originalSBuf` with new timing: the same image or data buffer, sample count,
/// sizes, packet descriptions, format, readiness, per-sample attachments and propagating
/// attachments; not its output presentation time. `sampleTimingEntryCount` is 0, 1 (the
/// entry applies to every sample, each starting one duration after the last) or the
/// sample count, else `kCMSampleBufferError_InvalidEntryCount`. The decode time is kept
/// as given. For audio whose format fixes the packet duration, that is each sample's
/// duration, so a copy of 1024 frames lasts 1024 / sample rate whatever duration the entry has.
@discardableResult
public func CMSampleBufferCreateCopyWithNewTiming(
    allocator: AnyObject?, sampleBuffer originalSBuf: CMSampleBuffer, sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard originalSBuf.isValid else { return kCMSampleBufferError_Invalidated }
    if numSampleTimingEntries > 0 && sampleTimingArray == nil { return kCMSampleBufferError_RequiredParameterMissing }
    let samples = originalSBuf.numSamples
    guard numSampleTimingEntries >= 0, CMSampleBuffer.isValidEntryCount(numSampleTimingEntries, samples: samples) else {
        return kCMSampleBufferError_InvalidEntryCount
    }
    let timings = sampleTimingArray.map { Array(UnsafeBufferPointer(start: $0, count: numSampleTimingEntries)) } ?? []
    var state = originalSBuf.copiedState(keepingOutputTime: false)
    CMSampleBuffer.applyTimings(timings, to: &state)
    sampleBufferOut.pointee = CMSampleBuffer(state: state)
    return noErr
}

/// Gives a sample buffer made without data its data buffer;
/// `kCMSampleBufferError_AlreadyHasDataBuffer` if it has one.
@discardableResult
public func CMSampleBufferSetDataBuffer(_ sbuf: CMSampleBuffer, dataBuffer: CMBlockBuffer) -> OSStatus {
    sbuf.setAudioData(dataBuffer, packets: sbuf.packetDescriptions) ? noErr : kCMSampleBufferError_AlreadyHasDataBuffer
}

extension CMSampleBuffer.State {
    /// A state with nothing in it, to be filled in.
    static var empty: Self {
        Self(
            imageBuffer: nil, formatDescription: nil, presentationTimeStamp: .invalid, duration: .invalid,
            storedAttachments: CMAttachmentBearerAttachments(), metadata: nil)
    }
}

extension CMSampleBuffer {
    /// Whether a timing or size array of `count` entries fits `samples` samples: 0, 1 or one each.
    static func isValidEntryCount(_ count: Int, samples: Int) -> Bool { count == 0 || count == 1 || count == samples }

    /// Fills `state` for `CMSampleBufferCreate`; an error status, or 0.
    static func makeState(
        _ state: inout State, dataBuffer: CMBlockBuffer?, dataReady: Bool, formatDescription: CMFormatDescription?, numSamples: Int,
        timings: [CMSampleTimingInfo], sizes: [Int]
    ) -> OSStatus {
        guard numSamples >= 0 else { return paramErr }
        guard isValidEntryCount(timings.count, samples: numSamples), isValidEntryCount(sizes.count, samples: numSamples) else {
            return kCMSampleBufferError_InvalidEntryCount
        }
        if dataReady && dataBuffer == nil && numSamples > 0 { return kCMSampleBufferError_RequiredParameterMissing }
        state = .empty
        state.formatDescription = formatDescription
        state.dataBuffer = dataBuffer
        state.sampleCount = numSamples
        if let asbd = formatDescription?.audioStreamBasicDescription {
            if asbd.mBytesPerPacket == 0 {
                // Compressed audio: its packets are where its sizes put them, one after another.
                guard !sizes.isEmpty || numSamples == 0 else { return kCMSampleBufferError_RequiredParameterMissing }
                // A packet's size is a 32-bit field: refuse what does not fit rather than trap.
                guard sizes.allSatisfy({ (0...Int(UInt32.max)).contains($0) }) else { return kCMSampleBufferError_InvalidEntryCount }
                var offset: Int64 = 0
                state.packetDescriptions = (0..<numSamples).map { index in
                    let size = sizes.count == 1 ? sizes[0] : sizes[index]
                    defer { offset += Int64(size) }
                    return AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: UInt32(size))
                }
            }
            // Linear PCM without sizes (non-interleaved) has them from its format.
            state.sampleSizes = sizes.isEmpty ? nil : sizes
        } else {
            state.sampleSizes = sizes
        }
        applyTimings(timings, to: &state)
        if !dataReady {
            state.readiness = .notReady
        } else if dataBuffer == nil {
            state.readiness = .ready
        }
        return noErr
    }

    /// Stores timing entries in `state` and sets its presentation time (the earliest),
    /// decode time (the earliest, or invalid) and duration (the sum) from them.
    static func applyTimings(_ timings: [CMSampleTimingInfo], to state: inout State) {
        var entries = timings
        if let asbd = state.formatDescription?.audioStreamBasicDescription, asbd.mSampleRate > 0, asbd.mFramesPerPacket > 0 {
            let packet = CMTime(value: Int64(asbd.mFramesPerPacket), timescale: CMTimeScale(asbd.mSampleRate.rounded()))
            for index in entries.indices { entries[index].duration = packet }
        }
        state.timings = entries
        let numeric = entries.map(\.presentationTimeStamp).filter(\.isNumeric)
        state.presentationTimeStamp = numeric.min() ?? entries.first?.presentationTimeStamp ?? .invalid
        state.decodeTimeStamp = entries.map(\.decodeTimeStamp).filter(\.isNumeric).min() ?? .invalid
        switch entries.count {
        case 0:
            state.duration = .invalid
        case 1:
            let samples = state.numSamples
            state.duration = samples > 1 ? CMTimeMultiply(entries[0].duration, multiplier: Int32(clamping: samples)) : entries[0].duration
        default:
            state.duration = entries.dropFirst().reduce(entries[0].duration) { CMTimeAdd($0, $1.duration) }
        }
    }

    /// This buffer's state for a copy: not invalidated, no invalidation handler, only the
    /// propagating attachments, its own copy of the per-sample attachments.
    func copiedState(keepingOutputTime: Bool) -> State {
        var state = stateSnapshot
        state.invalidated = false
        state.invalidateHandler = nil
        if !keepingOutputTime { state.outputPresentationTimeStamp = nil }
        state.attachments.storage = state.attachments.storage.filter { $0.value.mode == .shouldPropagate }
        state.sampleAttachments = state.sampleAttachments.map { Self.copyDictionaries($0, range: 0..<$0.dictionaries.count) }
        return state
    }

    /// New per-sample dictionaries holding the entries of `range` of `source`.
    static func copyDictionaries(_ source: CMSampleAttachmentsArrayStorage, range: Range<Int>) -> CMSampleAttachmentsArrayStorage {
        let copy = CMSampleAttachmentsArrayStorage(sampleCount: range.count)
        for (target, index) in zip(copy.dictionaries, range) {
            let from = source.dictionaries[index]
            for key in from.allKeys {
                if let hashable = key as? AnyHashable, let value = from.object(forKey: key) { target.setObject(value, forKey: hashable) }
            }
        }
        return copy
    }

    /// The state of a buffer holding samples `range` of this one, sharing its memory; an
    /// error status, or 0.
    func rangeState(_ range: Range<Int>, into result: inout State) -> OSStatus {
        guard isValid else { return kCMSampleBufferError_Invalidated }
        let state = copiedState(keepingOutputTime: false)
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= state.numSamples else {
            return kCMSampleBufferError_SampleIndexOutOfRange
        }
        if state.imageBuffer != nil {
            result = state
            return noErr
        }
        var made = state
        made.sampleCount = range.count
        if let data = state.dataBuffer {
            let asbd = state.formatDescription?.audioStreamBasicDescription
            var offset = 0
            var length = 0
            if !state.packetDescriptions.isEmpty {
                let packets = Array(state.packetDescriptions[range])
                offset = Int(packets[0].mStartOffset)
                length = packets.map { Int($0.mStartOffset) + Int($0.mDataByteSize) }.max()! - offset
                made.packetDescriptions = packets.map {
                    AudioStreamPacketDescription(
                        mStartOffset: $0.mStartOffset - Int64(offset), mVariableFramesInPacket: $0.mVariableFramesInPacket,
                        mDataByteSize: $0.mDataByteSize)
                }
            } else {
                if let asbd, asbd.isNonInterleaved, asbd.mChannelsPerFrame > 1 { return kCMSampleBufferError_CannotSubdivide }
                let sizes = state.sampleSizes ?? asbd.map { [Int($0.mBytesPerPacket)] } ?? []
                guard !sizes.isEmpty else { return kCMSampleBufferError_CannotSubdivide }
                func size(_ index: Int) -> Int { sizes.count == 1 ? sizes[0] : sizes[index] }
                offset = (0..<range.lowerBound).reduce(0) { $0 + size($1) }
                length = range.reduce(0) { $0 + size($1) }
            }
            guard let pieces = data.pieces(offset: offset, length: length) else { return kCMSampleBufferError_InvalidSampleData }
            made.dataBuffer = CMBlockBuffer(segments: pieces)
        }
        if let sizes = state.sampleSizes, sizes.count > 1 { made.sampleSizes = Array(sizes[range]) }
        made.sampleAttachments = state.sampleAttachments.map { Self.copyDictionaries($0, range: range) }
        let entries = state.timings ?? [timingInfo]
        var timings: [CMSampleTimingInfo] = []
        if entries.count > 1 {
            timings = Array(entries[range])
        } else if var entry = entries.first {
            let shift = CMTimeMultiply(entry.duration, multiplier: Int32(clamping: range.lowerBound))
            if range.lowerBound > 0 {
                entry.presentationTimeStamp = CMTimeAdd(entry.presentationTimeStamp, shift)
                if entry.decodeTimeStamp.isNumeric { entry.decodeTimeStamp = CMTimeAdd(entry.decodeTimeStamp, shift) }
            }
            timings = [entry]
        }
        Self.applyTimings(timings, to: &made)
        result = made
        return noErr
    }
}
