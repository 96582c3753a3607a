import Foundation

// The Swift overlay of CMBlockBuffer.h: throwing initializers and appends, slices, and
// byte access. Errors are `NSOSStatusErrorDomain` NSErrors carrying the C function's
// status (`CMBlockBuffer.Error.badOffsetParameter` …).

/// A range of a block buffer: the buffer itself, or a `CMBlockBuffer.Slice` of it.
/// Indices are byte offsets into `owner`.
public protocol CMBlockBufferProtocol {
    /// The block buffer whose bytes these are.
    var owner: CMBlockBuffer { get }
    /// The offset of the first byte in `owner`.
    var startIndex: Int { get }
    /// The offset just past the last byte in `owner`.
    var endIndex: Int { get }
}

extension CMBlockBuffer {
    /// A range of a block buffer's bytes (`blockBuffer[4..<8]`), sharing its memory.
    public struct Slice: CMBlockBufferProtocol {
        public let owner: CMBlockBuffer
        public let startIndex: Int
        public let endIndex: Int
    }

    /// Allocates a memory block (`(length) -> pointer`).
    public typealias CustomBlockAllocator = (Int) -> UnsafeMutableRawPointer?
    /// Frees a memory block (`(pointer, length)`).
    public typealias CustomBlockDeallocator = (UnsafeMutableRawPointer, Int) -> Void

    /// Options for making and appending to block buffers (the `kCMBlockBuffer…Flag`s).
    public struct Flags: OptionSet, Sendable {
        public let rawValue: CMBlockBufferFlags
        public init(rawValue: CMBlockBufferFlags) { self.rawValue = rawValue }
        /// `kCMBlockBufferAssureMemoryNowFlag`.
        public static let assureMemoryNow = Flags(rawValue: kCMBlockBufferAssureMemoryNowFlag)
        /// `kCMBlockBufferAlwaysCopyDataFlag`.
        public static let alwaysCopyData = Flags(rawValue: kCMBlockBufferAlwaysCopyDataFlag)
        /// `kCMBlockBufferDontOptimizeDepthFlag`.
        public static let dontOptimizeDepth = Flags(rawValue: kCMBlockBufferDontOptimizeDepthFlag)
        /// `kCMBlockBufferPermitEmptyReferenceFlag`.
        public static let permitEmptyReference = Flags(rawValue: kCMBlockBufferPermitEmptyReferenceFlag)
    }

    /// The errors block-buffer operations throw, one per `kCMBlockBuffer…Err` status.
    public struct Error {
        public static let structureAllocationFailed = statusError(kCMBlockBufferStructureAllocationFailedErr)
        public static let blockAllocationFailed = statusError(kCMBlockBufferBlockAllocationFailedErr)
        public static let badCustomBlockSource = statusError(kCMBlockBufferBadCustomBlockSourceErr)
        public static let badOffsetParameter = statusError(kCMBlockBufferBadOffsetParameterErr)
        public static let badLengthParameter = statusError(kCMBlockBufferBadLengthParameterErr)
        public static let badPointerParameter = statusError(kCMBlockBufferBadPointerParameterErr)
        public static let emptyBlockBuffer = statusError(kCMBlockBufferEmptyBBufErr)
        public static let unallocatedBlock = statusError(kCMBlockBufferUnallocatedBlockErr)
        public static let insufficientSpace = statusError(kCMBlockBufferInsufficientSpaceErr)
    }

    static func check(_ status: OSStatus) throws {
        guard status == noErr else { throw statusError(status) }
    }

    // MARK: Making

    /// An empty block buffer, to append to (`CMBlockBufferCreateEmpty`).
    public convenience init(capacity: Int = 0, flags: CMBlockBuffer.Flags = []) throws {
        self.init(segments: [])
    }

    /// A block buffer over `buffer`, which it now owns: freed by `allocator` when the buffer
    /// goes (malloc's free for `kCFAllocatorDefault`; never, for `kCFAllocatorNull`).
    public convenience init(
        buffer: UnsafeMutableRawBufferPointer, allocator: AnyObject? = kCFAllocatorDefault, flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(buffer: buffer, allocator: allocator, flags: flags)
    }

    /// A block buffer over a slice of a memory block it now owns (see `init(buffer:allocator:flags:)`).
    public convenience init(
        buffer: Swift.Slice<UnsafeMutableRawBufferPointer>, allocator: AnyObject? = kCFAllocatorDefault, flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(buffer: buffer, allocator: allocator, flags: flags)
    }

    /// A block buffer over a new memory block of `length` bytes, made now with
    /// `.assureMemoryNow`, else on first access; it covers `range` of the block (all of it by default).
    public convenience init(
        length: Int, allocator: AnyObject? = kCFAllocatorDefault, range: Range<Int>? = nil, flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(length: length, allocator: allocator, range: range, flags: flags)
    }

    /// A block buffer over `buffer`, which `deallocator` frees when the buffer goes.
    public convenience init(
        buffer: UnsafeMutableRawBufferPointer, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator, flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(buffer: buffer, deallocator: deallocator, flags: flags)
    }

    /// A block buffer over a slice of a memory block that `deallocator` frees when the buffer goes.
    public convenience init(
        buffer: Swift.Slice<UnsafeMutableRawBufferPointer>, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator,
        flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(buffer: buffer, deallocator: deallocator, flags: flags)
    }

    /// A block buffer over a memory block of `length` bytes made by `allocator` and freed by `deallocator`.
    public convenience init(
        length: Int, allocator: @escaping CMBlockBuffer.CustomBlockAllocator, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator,
        range: Range<Int>? = nil, flags: CMBlockBuffer.Flags = []
    ) throws {
        self.init(segments: [])
        try append(length: length, allocator: allocator, deallocator: deallocator, range: range, flags: flags)
    }

    /// A block buffer over the bytes of another (or a slice of one), sharing its memory
    /// (copying it with `.alwaysCopyData`) (`CMBlockBufferCreateWithBufferReference`).
    public convenience init<T: CMBlockBufferProtocol>(bufferReference: T, flags: CMBlockBuffer.Flags = []) throws {
        self.init(segments: [])
        try append(bufferReference: bufferReference, flags: flags)
    }

    // MARK: Appending

    /// Appends a new memory block of `length` bytes (`CMBlockBufferAppendMemoryBlock`).
    public func append(length: Int, allocator: AnyObject? = kCFAllocatorDefault, range: Range<Int>? = nil, flags: CMBlockBuffer.Flags = []) throws {
        try CMBlockBuffer.check(
            CMBlockBufferAppendMemoryBlock(
                self, memoryBlock: nil, length: length, blockAllocator: allocator, customBlockSource: nil,
                offsetToData: range?.lowerBound ?? 0, dataLength: range?.count ?? length, flags: flags.rawValue))
    }

    /// Appends `buffer`, which the block buffer now owns (see `init(buffer:allocator:flags:)`).
    public func append(buffer: UnsafeMutableRawBufferPointer, allocator: AnyObject? = kCFAllocatorDefault, flags: CMBlockBuffer.Flags = []) throws {
        guard let base = buffer.baseAddress else { throw Error.badPointerParameter }
        try CMBlockBuffer.check(
            CMBlockBufferAppendMemoryBlock(
                self, memoryBlock: base, length: buffer.count, blockAllocator: allocator, customBlockSource: nil, offsetToData: 0,
                dataLength: buffer.count, flags: flags.rawValue))
    }

    /// Appends a slice of a memory block the block buffer now owns (all of it is freed).
    public func append(
        buffer: Swift.Slice<UnsafeMutableRawBufferPointer>, allocator: AnyObject? = kCFAllocatorDefault, flags: CMBlockBuffer.Flags = []
    ) throws {
        guard let base = buffer.base.baseAddress else { throw Error.badPointerParameter }
        try CMBlockBuffer.check(
            CMBlockBufferAppendMemoryBlock(
                self, memoryBlock: base, length: buffer.base.count, blockAllocator: allocator, customBlockSource: nil,
                offsetToData: buffer.startIndex, dataLength: buffer.count, flags: flags.rawValue))
    }

    /// Appends a memory block of `length` bytes made by `allocator` and freed by `deallocator`.
    public func append(
        length: Int, allocator: @escaping CMBlockBuffer.CustomBlockAllocator, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator,
        range: Range<Int>? = nil, flags: CMBlockBuffer.Flags = []
    ) throws {
        let block = MemoryBlock(pointer: nil, length: length, allocator: nil, source: nil, allocateBlock: allocator, freeBlock: deallocator)
        try appendBlock(block, range: range ?? 0..<length, flags: flags)
    }

    /// Appends `buffer`, which `deallocator` frees when the block buffer goes.
    public func append(
        buffer: UnsafeMutableRawBufferPointer, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator, flags: CMBlockBuffer.Flags = []
    ) throws {
        guard let base = buffer.baseAddress else { throw Error.badPointerParameter }
        let block = MemoryBlock(pointer: base, length: buffer.count, allocator: nil, source: nil, freeBlock: deallocator)
        try appendBlock(block, range: 0..<buffer.count, flags: flags)
    }

    /// Appends a slice of a memory block that `deallocator` frees (all of it) when the block buffer goes.
    public func append(
        buffer: Swift.Slice<UnsafeMutableRawBufferPointer>, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator,
        flags: CMBlockBuffer.Flags = []
    ) throws {
        guard let base = buffer.base.baseAddress else { throw Error.badPointerParameter }
        let block = MemoryBlock(pointer: base, length: buffer.base.count, allocator: nil, source: nil, freeBlock: deallocator)
        try appendBlock(block, range: buffer.startIndex..<buffer.endIndex, flags: flags)
    }

    /// Appends the bytes of another block buffer or slice (`CMBlockBufferAppendBufferReference`).
    public func append<T: CMBlockBufferProtocol>(bufferReference: T, flags: CMBlockBuffer.Flags = []) throws {
        try CMBlockBuffer.check(
            CMBlockBufferAppendBufferReference(
                self, targetBBuf: bufferReference.owner, offsetToData: bufferReference.startIndex,
                dataLength: bufferReference.endIndex - bufferReference.startIndex, flags: flags.rawValue))
    }

    private func appendBlock(_ block: MemoryBlock, range: Range<Int>, flags: CMBlockBuffer.Flags) throws {
        guard range.lowerBound >= 0, range.upperBound <= block.length else {
            throw range.lowerBound < 0 || range.lowerBound > block.length ? Error.badOffsetParameter : Error.badLengthParameter
        }
        if flags.contains(.assureMemoryNow), !block.assure() { throw Error.blockAllocationFailed }
        append([Segment(block: block, offset: range.lowerBound, length: range.count)])
    }

    /// Makes every memory block that has no memory yet (`CMBlockBufferAssureBlockMemory`).
    public func assureBlockMemory() throws { try CMBlockBuffer.check(CMBlockBufferAssureBlockMemory(self)) }

    /// Calls `body` with the bytes from `offset` to the end of the memory block holding
    /// them (`CMBlockBufferGetDataPointer`'s length at offset), writable.
    public func withUnsafeMutableBytes<R>(atOffset offset: Int = 0, _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        var length = 0
        var pointer: UnsafeMutablePointer<CChar>?
        try CMBlockBuffer.check(
            CMBlockBufferGetDataPointer(self, atOffset: offset, lengthAtOffsetOut: &length, totalLengthOut: nil, dataPointerOut: &pointer))
        return try body(UnsafeMutableRawBufferPointer(start: pointer.map(UnsafeMutableRawPointer.init), count: length))
    }
}

extension CMBlockBuffer: CMBlockBufferProtocol {
    /// The buffer itself.
    public var owner: CMBlockBuffer { self }
    /// 0.
    public var startIndex: Int { 0 }
    /// The data length.
    public var endIndex: Int { dataLength }
}

extension CMBlockBufferProtocol {
    /// The bytes `bounds` (offsets into `owner`, within this range).
    public subscript(bounds: Range<Int>) -> CMBlockBuffer.Slice {
        precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex, "CMBlockBuffer: range out of bounds")
        return CMBlockBuffer.Slice(owner: owner, startIndex: bounds.lowerBound, endIndex: bounds.upperBound)
    }
    public subscript(bounds: ClosedRange<Int>) -> CMBlockBuffer.Slice { self[bounds.lowerBound..<bounds.upperBound + 1] }
    public subscript(bounds: PartialRangeUpTo<Int>) -> CMBlockBuffer.Slice { self[startIndex..<bounds.upperBound] }
    public subscript(bounds: PartialRangeThrough<Int>) -> CMBlockBuffer.Slice { self[startIndex..<bounds.upperBound + 1] }
    public subscript(bounds: PartialRangeFrom<Int>) -> CMBlockBuffer.Slice { self[bounds.lowerBound..<endIndex] }
    public subscript(bounds: (UnboundedRange_) -> Void) -> CMBlockBuffer.Slice { self[startIndex..<endIndex] }

    /// The number of bytes.
    public var dataLength: Int { endIndex - startIndex }
    /// Whether the bytes lie in one memory block (`CMBlockBufferIsRangeContiguous`).
    public var isContiguous: Bool { CMBlockBufferIsRangeContiguous(owner, atOffset: startIndex, length: dataLength) }

    /// A block buffer holding these bytes in one memory block: the same block when they
    /// already are contiguous, else a copy (`CMBlockBufferCreateContiguous`).
    public func makeContiguous(allocator: AnyObject? = kCFAllocatorDefault, flags: CMBlockBuffer.Flags = []) throws -> CMBlockBuffer {
        guard dataLength > 0 else { return CMBlockBuffer(segments: []) }
        var made: CMBlockBuffer?
        try CMBlockBuffer.check(
            CMBlockBufferCreateContiguous(
                allocator: nil, sourceBuffer: owner, blockAllocator: allocator, customBlockSource: nil, offsetToData: startIndex,
                dataLength: dataLength, flags: flags.rawValue, blockBufferOut: &made))
        return made!
    }

    /// A block buffer holding these bytes in one memory block; a copy is made by `allocator`
    /// and freed by `deallocator`.
    public func makeContiguous(
        allocator: @escaping CMBlockBuffer.CustomBlockAllocator, deallocator: @escaping CMBlockBuffer.CustomBlockDeallocator,
        flags: CMBlockBuffer.Flags = []
    ) throws -> CMBlockBuffer {
        if isContiguous && !flags.contains(.alwaysCopyData) { return try makeContiguous(allocator: nil, flags: flags) }
        let copy = try CMBlockBuffer(length: dataLength, allocator: allocator, deallocator: deallocator, flags: .assureMemoryNow)
        try copy.withUnsafeMutableBytes { try copyDataBytes(to: $0) }
        return copy
    }

    /// Calls `body` with the bytes, which must lie in one memory block (else it throws
    /// `CMBlockBuffer.Error.badLengthParameter`).
    public func withContiguousStorage<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let piece = owner.pieces(offset: startIndex, length: dataLength), piece.count <= 1 else {
            throw CMBlockBuffer.Error.badLengthParameter
        }
        guard let run = piece.first else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard run.block.assure(), let base = run.block.pointer else { throw CMBlockBuffer.Error.blockAllocationFailed }
        return try body(UnsafeRawBufferPointer(start: base + run.offset, count: run.length))
    }

    /// A copy of the bytes.
    public func dataBytes() throws -> Data {
        var data = Data(count: dataLength)
        if dataLength > 0 { try data.withUnsafeMutableBytes { try copyDataBytes(to: $0) } }
        return data
    }

    /// Copies the first `destination.count` bytes into `destination`
    /// (`CMBlockBufferCopyDataBytes`); more than there are throws `badLengthParameter`.
    public func copyDataBytes(to destination: UnsafeMutableRawBufferPointer) throws {
        guard destination.count <= dataLength else { throw CMBlockBuffer.Error.badLengthParameter }
        guard let base = destination.baseAddress, destination.count > 0 else { return }
        try CMBlockBuffer.check(CMBlockBufferCopyDataBytes(owner, atOffset: startIndex, dataLength: destination.count, destination: base))
    }

    /// Overwrites the first `sourceBytes.count` bytes with `sourceBytes`
    /// (`CMBlockBufferReplaceDataBytes`); more than there are throws `badLengthParameter`.
    public func replaceDataBytes(with sourceBytes: UnsafeRawBufferPointer) throws {
        guard sourceBytes.count <= dataLength else { throw CMBlockBuffer.Error.badLengthParameter }
        guard let base = sourceBytes.baseAddress, sourceBytes.count > 0 else { return }
        try CMBlockBuffer.check(
            CMBlockBufferReplaceDataBytes(with: base, blockBuffer: owner, offsetIntoDestination: startIndex, dataLength: sourceBytes.count))
    }

    /// Sets every byte to `fillByte` (`CMBlockBufferFillDataBytes`).
    public func fillDataBytes(with fillByte: UInt8) throws {
        guard dataLength > 0 else { return }
        try CMBlockBuffer.check(
            CMBlockBufferFillDataBytes(
                with: CChar(bitPattern: fillByte), blockBuffer: owner, offsetIntoDestination: startIndex, dataLength: dataLength))
    }
}

/// An `NSOSStatusErrorDomain` error with `status`.
func statusError(_ status: OSStatus) -> NSError { NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
