import Foundation
import Synchronization

/// One captured video frame (or the record of a dropped one): the image buffer, its timing,
/// its format and its attachments.
///
/// Delivered sample buffers are recycled by the output that made them once nobody holds
/// them any more, so steady-state capture allocates nothing per frame.
public final class CMSampleBuffer: @unchecked Sendable {
    private let state: Mutex<State>

    struct State {
        var imageBuffer: CVImageBuffer?
        var formatDescription: CMFormatDescription?
        var presentationTimeStamp: CMTime
        var duration: CMTime
        /// The attachments set so far (read and written through `attachments`).
        var storedAttachments: CMAttachmentBearerAttachments
        var metadata: FrameMetadata?
        /// The frame's `{Exif}` attachment is still to be made from `metadata`: made at the
        /// first read or write of the attachments, so a frame nobody asks about costs no
        /// dictionary (`attachExifOfItsFrame`).
        var exifPending = false

        /// The attachments, with the frame's Exif made first if it is pending.
        var attachments: CMAttachmentBearerAttachments {
            mutating get {
                if exifPending {
                    exifPending = false
                    let key = CMAttachmentBearerAttachments.Key(FrameMetadata.exifAttachmentKey)
                    if let metadata, storedAttachments[key] == nil {
                        storedAttachments[key] = .init(value: metadata.exifAttachment, mode: .shouldPropagate)
                    }
                }
                return storedAttachments
            }
            set {
                exifPending = false
                storedAttachments = newValue
            }
        }
        /// Audio: the samples, and how many frames they hold.
        var dataBuffer: CMBlockBuffer?
        var sampleCount = 0
        var packetDescriptions: [AudioStreamPacketDescription] = []
        /// Readiness set explicitly (created not ready, set ready or failed); nil: the
        /// default (ready, or for audio ready once it has its data).
        var readiness: DataReadiness?
        /// What `CMSampleBufferMakeDataReady` calls, and its refcon.
        var makeDataReady: (callback: CMSampleBufferMakeDataReadyCallback, refcon: UnsafeMutableRawPointer?)?
        /// Set by `CMSampleBufferInvalidate`.
        var invalidated = false
        /// Set by `CMSampleBufferSetOutputPresentationTimeStamp`; nil: the presentation time.
        var outputPresentationTimeStamp: CMTime?
        /// The per-sample attachment dictionaries; nil until an app asks for them.
        var sampleAttachments: CMSampleAttachmentsArrayStorage?
        /// What `CMSampleBufferInvalidate` calls, once.
        var invalidateHandler: ((CMSampleBuffer) -> Void)?
        /// The decode time of the earliest sample, when the buffer was made with one.
        var decodeTimeStamp = CMTime.invalid
        /// The timing entries the buffer was made with (0, 1 or one per sample); nil for
        /// buffers whose timing is their presentation time and duration alone (capture).
        var timings: [CMSampleTimingInfo]?
        /// The size entries the buffer was made with (0, 1 or one per sample); nil: sizes
        /// follow from the audio format (or there are none, for image buffers).
        var sampleSizes: [Int]?
    }

    /// A sample buffer holding `state` (made by the creation and copy functions).
    init(state: State) { self.state = Mutex(state) }

    /// A copy of the state, for copies of this buffer.
    var stateSnapshot: State { state.withLock { $0 } }

    /// Reads or changes the state under the lock (for the other files of this type).
    func withState<R>(_ body: (inout State) -> R) -> R { state.withLock(body) }

    package init(
        imageBuffer: CVImageBuffer?, formatDescription: CMFormatDescription?, presentationTimeStamp: CMTime,
        duration: CMTime, metadata: FrameMetadata? = nil
    ) {
        state = Mutex(
            State(
                imageBuffer: imageBuffer, formatDescription: formatDescription,
                presentationTimeStamp: presentationTimeStamp, duration: duration,
                storedAttachments: CMAttachmentBearerAttachments(), metadata: metadata))
    }

    /// Refills a recycled sample buffer for a new frame.
    package func reuse(
        imageBuffer: CVImageBuffer?, formatDescription: CMFormatDescription?, presentationTimeStamp: CMTime,
        duration: CMTime, metadata: FrameMetadata?
    ) {
        let dropped = state.withLock {
            $0.imageBuffer = imageBuffer
            $0.formatDescription = formatDescription
            $0.presentationTimeStamp = presentationTimeStamp
            $0.duration = duration
            $0.metadata = metadata
            // A recycled buffer starts as a fresh one: whatever an app did to the last frame's
            // buffer (invalidated it, set its output time) does not carry over.
            $0.readiness = nil
            $0.makeDataReady = nil
            $0.invalidated = false
            $0.outputPresentationTimeStamp = nil
            $0.decodeTimeStamp = .invalid
            if $0.timings != nil { $0.timings = nil }
            if $0.sampleSizes != nil { $0.sampleSizes = nil }
            $0.exifPending = false
            if !$0.storedAttachments.storage.isEmpty { $0.storedAttachments.storage.removeAll(keepingCapacity: true) }
            // Nor do its per-sample attachments or invalidation handler; they are released
            // after the lock, since their values' deinits are the app's code.
            let previous = ($0.sampleAttachments, $0.invalidateHandler)
            $0.sampleAttachments = nil
            $0.invalidateHandler = nil
            return previous
        }
        withExtendedLifetime(dropped) {}
    }

    /// An audio sample buffer: `sampleCount` frames of `formatDescription` in `dataBuffer`
    /// from `presentationTimeStamp`, each 1 / sample rate long.
    package init(
        dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription, sampleCount: Int, presentationTimeStamp: CMTime,
        packetDescriptions: [AudioStreamPacketDescription] = []
    ) {
        let rate = formatDescription.audio?.asbd.pointee.mSampleRate ?? 0
        let framesPerPacket = max(1, Int(formatDescription.audio?.asbd.pointee.mFramesPerPacket ?? 1))
        let frames = Int64(sampleCount * framesPerPacket)
        let duration = rate > 0 ? CMTime(value: frames, timescale: CMTimeScale(rate.rounded())) : CMTime.invalid
        var state = State(
            imageBuffer: nil, formatDescription: formatDescription, presentationTimeStamp: presentationTimeStamp,
            duration: duration, storedAttachments: CMAttachmentBearerAttachments(), metadata: nil)
        state.dataBuffer = dataBuffer
        state.sampleCount = sampleCount
        state.packetDescriptions = packetDescriptions
        self.state = Mutex(state)
    }

    /// The block buffer of an audio sample buffer.
    package var audioData: CMBlockBuffer? { state.withLock { $0.dataBuffer } }
    /// Where each packet of compressed audio lies (empty for linear PCM).
    package var packetDescriptions: [AudioStreamPacketDescription] { state.withLock { $0.packetDescriptions } }

    /// Gives an audio sample buffer made without data its data; false if it had some.
    package func setAudioData(_ data: CMBlockBuffer, packets: [AudioStreamPacketDescription]) -> Bool {
        state.withLock {
            guard $0.dataBuffer == nil else { return false }
            $0.dataBuffer = data
            $0.packetDescriptions = packets
            return true
        }
    }

    /// Lets go of the image so its pool can recycle it while this object waits for reuse.
    package func releaseImage() {
        state.withLock { $0.imageBuffer = nil }
    }

    /// The frame's pixels; `nil` for a dropped-frame record.
    public var imageBuffer: CVImageBuffer? { state.withLock { $0.imageBuffer } }
    /// The time the frame was captured, on the session's synchronization clock.
    public var presentationTimeStamp: CMTime { state.withLock { $0.presentationTimeStamp } }
    /// The decode time of the earliest sample: the one given when the buffer was made
    /// (`CMSampleBufferCreate`, a copy with new timing); invalid otherwise, as for capture,
    /// whose decode order is presentation order.
    public var decodeTimeStamp: CMTime { state.withLock { $0.decodeTimeStamp } }
    /// The frame's duration: the active frame duration when it was captured.
    public var duration: CMTime { state.withLock { $0.duration } }
    /// The format of the image buffer.
    public var formatDescription: CMFormatDescription? { state.withLock { $0.formatDescription } }
    /// The number of samples: 1 for a frame, 0 for a dropped-frame record; for audio, the
    /// number of frames (linear PCM) or packets; for a buffer made with `CMSampleBufferCreate`,
    /// the count it was made with.
    public var numSamples: Int { state.withLock { $0.numSamples } }
    /// Whether the data is ready, not yet, or failed: ready unless it was made not ready
    /// (or, for audio, until it has its data buffer) or marked failed.
    public var dataReadiness: DataReadiness {
        state.withLock {
            if let readiness = $0.readiness { return readiness }
            return $0.formatDescription?.audio == nil || $0.dataBuffer != nil ? .ready : .notReady
        }
    }
    /// Whether the sample buffer is valid: true until `invalidate()` (`CMSampleBufferInvalidate`).
    public var isValid: Bool { state.withLock { !$0.invalidated } }

    /// The sample buffer's attachments, such as the dropped-frame reason.
    public var attachments: CMAttachmentBearerAttachments {
        get { state.withLock { $0.attachments } }
        set { state.withLock { $0.attachments = newValue } }
    }

    /// What the device recorded about the frame (Linux addition used by the CLI and tests).
    package var metadata: FrameMetadata? { state.withLock { $0.metadata } }

    /// Gives the frame the `{Exif}` attachment an iPhone's frames carry, made from its
    /// metadata when the attachments are first read (after `reuse`).
    package func attachExifOfItsFrame() {
        state.withLock { $0.exifPending = $0.metadata != nil }
    }

    package func setAttachment(_ key: String, _ value: String) {
        state.withLock { $0.attachments.storage[.init(key)] = .init(value: value, mode: .shouldPropagate) }
    }
}

/// The pixels of a sample buffer, or `nil`.
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { sbuf.imageBuffer }
/// The presentation time of a sample buffer.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTimeStamp }
/// The output presentation time: the one set with `CMSampleBufferSetOutputPresentationTimeStamp`,
/// else the presentation time (capture has no edits, trims or speed changes).
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.outputPresentationTimeStamp }
/// The decode time of the earliest sample; invalid when the buffer has none (capture).
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.decodeTimeStamp }
/// The duration of a sample buffer.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }
/// The format description of a sample buffer.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.formatDescription }
/// The number of samples in a sample buffer.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> Int { sbuf.numSamples }
/// Whether a sample buffer is valid.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool { sbuf.isValid }

extension CMSampleBuffer.State {
    /// 1 for an image buffer, else the sample count (0 for a dropped-frame record).
    var numSamples: Int { imageBuffer != nil ? 1 : sampleCount }
}
