import Foundation

// CoreAudioTypes.h's buffers of audio data, and the Swift overlay's view of a list of them.

/// One buffer of audio: interleaved channels, or one channel of non-interleaved audio.
public struct AudioBuffer: @unchecked Sendable {
    /// Interleaved channels in the buffer (1 for each buffer of non-interleaved audio).
    public var mNumberChannels: UInt32
    /// Bytes of data at `mData`.
    public var mDataByteSize: UInt32
    /// The samples.
    public var mData: UnsafeMutableRawPointer?

    /// No channels, no data.
    public init() { self.init(mNumberChannels: 0, mDataByteSize: 0, mData: nil) }

    /// A buffer from its fields.
    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        self.mNumberChannels = mNumberChannels
        self.mDataByteSize = mDataByteSize
        self.mData = mData
    }

    /// A buffer over `typedBuffer`'s memory with `numberOfChannels` interleaved channels
    /// (the Swift overlay's initialiser).
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(
            mNumberChannels: UInt32(numberOfChannels), mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
            mData: typedBuffer.baseAddress.map { UnsafeMutableRawPointer($0) })
    }
}

/// A variable-length list of audio buffers: `mNumberBuffers` of them, the first in
/// `mBuffers` and the rest after it in the same allocation (a C flexible array, as Swift
/// imports it). Walk it with `UnsafeMutableAudioBufferListPointer`.
public struct AudioBufferList: @unchecked Sendable {
    /// How many buffers follow.
    public var mNumberBuffers: UInt32
    /// The first buffer.
    public var mBuffers: AudioBuffer

    /// No buffers.
    public init() { self.init(mNumberBuffers: 0, mBuffers: AudioBuffer()) }

    /// A list from its fields.
    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        self.mNumberBuffers = mNumberBuffers
        self.mBuffers = mBuffers
    }

    /// Bytes a list of `maximumBuffers` buffers needs.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "AudioBufferList should contain at least one AudioBuffer")
        return MemoryLayout<AudioBufferList>.size - MemoryLayout<AudioBuffer>.stride
            + maximumBuffers * MemoryLayout<AudioBuffer>.stride
    }

    /// Allocates a zeroed list with room for `maximumBuffers` buffers and `mNumberBuffers`
    /// set to it. The caller frees it (`free(list.unsafeMutablePointer)`).
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let bytes = sizeInBytes(maximumBuffers: maximumBuffers)
        guard let raw = calloc(1, bytes) else { fatalError("AudioBufferList.allocate: out of memory") }
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }
}

/// The buffers of an `AudioBufferList` as a collection (the Swift overlay's view).
public struct UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection, @unchecked Sendable {
    /// The list.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// A view of the list at `p`.
    public init(_ p: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = p }

    /// A view of the list at `p`, or nil for a nil pointer.
    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        self.init(p)
    }

    /// The list, read-only.
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// `mNumberBuffers`.
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        let offset = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers)!
        return (UnsafeMutableRawPointer(unsafeMutablePointer) + offset).assumingMemoryBound(to: AudioBuffer.self)
    }

    /// The buffer at `index`.
    public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "subscript index out of range")
            return buffers[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "subscript index out of range")
            buffers[index] = newValue
        }
    }
}
