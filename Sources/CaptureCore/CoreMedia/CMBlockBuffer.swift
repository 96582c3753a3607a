import Foundation
import Synchronization

/// Flags for making and appending to block buffers.
public typealias CMBlockBufferFlags = UInt32
/// Allocate memory blocks at once rather than on first access.
public let kCMBlockBufferAssureMemoryNowFlag: CMBlockBufferFlags = 1 << 0
/// Copy referenced data rather than referencing it.
public let kCMBlockBufferAlwaysCopyDataFlag: CMBlockBufferFlags = 1 << 1
/// Keep a reference to a block buffer as a reference rather than to its pieces.
public let kCMBlockBufferDontOptimizeDepthFlag: CMBlockBufferFlags = 1 << 2
/// Allow an empty block buffer as a reference target.
public let kCMBlockBufferPermitEmptyReferenceFlag: CMBlockBufferFlags = 1 << 3

public let kCMBlockBufferNoErr: OSStatus = 0
public let kCMBlockBufferStructureAllocationFailedErr: OSStatus = -12700
public let kCMBlockBufferBlockAllocationFailedErr: OSStatus = -12701
public let kCMBlockBufferBadCustomBlockSourceErr: OSStatus = -12702
public let kCMBlockBufferBadOffsetParameterErr: OSStatus = -12703
public let kCMBlockBufferBadLengthParameterErr: OSStatus = -12704
public let kCMBlockBufferBadPointerParameterErr: OSStatus = -12705
public let kCMBlockBufferEmptyBBufErr: OSStatus = -12706
public let kCMBlockBufferUnallocatedBlockErr: OSStatus = -12707
public let kCMBlockBufferInsufficientSpaceErr: OSStatus = -12708

/// An allocator that neither allocates nor frees: a memory block given with it stays the
/// caller's. (`kCFAllocatorDefault`, nil, means malloc and free.)
public var kCFAllocatorNull: AnyObject? { NullAllocator.shared }
package final class NullAllocator: Sendable {
    static let shared = NullAllocator()
}

/// Allocates and frees the memory block of a block buffer in the caller's own way.
public struct CMBlockBufferCustomBlockSource: @unchecked Sendable {
    /// 0 (`kCMBlockBufferCustomBlockSourceVersion`).
    public var version: UInt32
    /// Makes a block of `sizeInBytes`; nil to use malloc.
    public var AllocateBlock: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?
    /// Frees a block (`refCon`, the block, its size); nil to leave it.
    public var FreeBlock: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?
    /// Passed to both callbacks.
    public var refCon: UnsafeMutableRawPointer?

    public init() { self.init(version: 0, AllocateBlock: nil, FreeBlock: nil, refCon: nil) }

    public init(
        version: UInt32, AllocateBlock: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?,
        FreeBlock: (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer, Int) -> Void)?,
        refCon: UnsafeMutableRawPointer?
    ) {
        self.version = version
        self.AllocateBlock = AllocateBlock
        self.FreeBlock = FreeBlock
        self.refCon = refCon
    }
}
/// The version of `CMBlockBufferCustomBlockSource` this SDK knows.
public let kCMBlockBufferCustomBlockSourceVersion: UInt32 = 0

/// A range of bytes over one or more memory blocks, as Core Media's `CMBlockBuffer`: the
/// data of audio sample buffers. Memory blocks are shared, not copied, between block
/// buffers that reference each other; a block is freed (as its allocator or custom block
/// source says) when the last block buffer using it goes.
public final class CMBlockBuffer: @unchecked Sendable {
    /// One memory block, freed in deinit as its owner asked; its memory may be made late
    /// (on first access, from any thread: made outside the lock, the loser of a race frees its copy).
    package final class MemoryBlock: @unchecked Sendable {
        private let memory: Mutex<UnsafeMutableRawPointer?>
        let length: Int
        private let source: CMBlockBufferCustomBlockSource?
        private let freesPointer: Bool
        /// The Swift overlay's allocator and deallocator closures, in place of a block source.
        private let allocateBlock: ((Int) -> UnsafeMutableRawPointer?)?
        private let freeBlock: ((UnsafeMutableRawPointer, Int) -> Void)?

        init(
            pointer: UnsafeMutableRawPointer?, length: Int, allocator: AnyObject?, source: CMBlockBufferCustomBlockSource?,
            allocateBlock: ((Int) -> UnsafeMutableRawPointer?)? = nil, freeBlock: ((UnsafeMutableRawPointer, Int) -> Void)? = nil
        ) {
            memory = Mutex(pointer)
            self.length = length
            self.source = source
            self.allocateBlock = allocateBlock
            self.freeBlock = freeBlock
            freesPointer = pointer == nil || !(allocator is NullAllocator) || source != nil || freeBlock != nil
        }

        package var pointer: UnsafeMutableRawPointer? { memory.withLock { $0 } }

        /// Makes the block's memory if it has none yet; false when that fails.
        func assure() -> Bool {
            if pointer != nil { return true }
            guard let made = allocate() else { return false }
            let kept = memory.withLock { current -> Bool in
                if current != nil { return false }
                current = made
                return true
            }
            if !kept { release(made) }
            return true
        }

        private func allocate() -> UnsafeMutableRawPointer? {
            if let allocateBlock { return allocateBlock(length) }
            if let allocate = source?.AllocateBlock { return allocate(source?.refCon, length) }
            var made: UnsafeMutableRawPointer?
            return posix_memalign(&made, 16, max(length, 1)) == 0 ? made : nil
        }

        private func release(_ block: UnsafeMutableRawPointer) {
            if let freeBlock {
                freeBlock(block, length)
            } else if let source {
                source.FreeBlock?(source.refCon, block, length)
            } else {
                free(block)
            }
        }

        deinit {
            guard let block = pointer, freesPointer else { return }
            release(block)
        }
    }

    /// A piece of the buffer's range: `length` bytes from `offset` in `block`.
    package struct Segment {
        package var block: MemoryBlock
        package var offset: Int
        package var length: Int
    }

    private let segments: Mutex<[Segment]>

    package init(segments: [Segment]) { self.segments = Mutex(segments) }

    /// A buffer over a fresh 16-byte-aligned block of `length` bytes, made now.
    package convenience init?(allocating length: Int) {
        let block = MemoryBlock(pointer: nil, length: length, allocator: nil, source: nil)
        guard block.assure() else { return nil }
        self.init(segments: [Segment(block: block, offset: 0, length: length)])
    }

    package var pieces: [Segment] { segments.withLock { $0 } }

    package func append(_ more: [Segment]) { segments.withLock { $0.append(contentsOf: more) } }

    /// Total bytes (the Swift overlay's property).
    public var dataLength: Int { segments.withLock { $0.reduce(0) { $0 + $1.length } } }

    /// The pieces covering `offset ..< offset + length`, cut to that range.
    package func pieces(offset: Int, length: Int) -> [Segment]? {
        guard offset >= 0, length >= 0 else { return nil }
        var result: [Segment] = []
        var start = 0
        for piece in pieces {
            let end = start + piece.length
            let lo = max(offset, start)
            let hi = min(offset + length, end)
            if lo < hi { result.append(Segment(block: piece.block, offset: piece.offset + lo - start, length: hi - lo)) }
            start = end
        }
        return offset + length <= start ? result : nil
    }

    /// Visits each contiguous run of `offset ..< offset + length` with its memory,
    /// making memory blocks that have none yet. Returns an error status or 0.
    package func forEachRun(
        offset: Int, length: Int, _ body: (UnsafeMutableRawPointer, Int, Int) -> Void
    ) -> OSStatus {
        guard let runs = pieces(offset: offset, length: length) else {
            return offset > dataLength ? kCMBlockBufferBadOffsetParameterErr : kCMBlockBufferBadLengthParameterErr
        }
        var done = 0
        for run in runs {
            guard run.block.assure(), let base = run.block.pointer else { return kCMBlockBufferBlockAllocationFailedErr }
            body(base + run.offset, run.length, done)
            done += run.length
        }
        return noErr
    }
}

/// Makes an empty block buffer (data is appended to it later).
@discardableResult
public func CMBlockBufferCreateEmpty(
    allocator structureAllocator: AnyObject?, capacity subBlockCapacity: UInt32, flags: CMBlockBufferFlags,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = CMBlockBuffer(segments: [])
    return noErr
}

/// Makes a block buffer over one memory block: `memoryBlock` (nil: one of `blockLength`
/// bytes is made by `blockAllocator` or `customBlockSource`, now with
/// `kCMBlockBufferAssureMemoryNowFlag`, else on first access), of which the buffer covers
/// `dataLength` bytes from `offsetToData`. A given block is freed when the buffer goes
/// (with free, or the custom source's FreeBlock) unless `blockAllocator` is `kCFAllocatorNull`.
@discardableResult
public func CMBlockBufferCreateWithMemoryBlock(
    allocator structureAllocator: AnyObject?, memoryBlock: UnsafeMutableRawPointer?, blockLength: Int,
    blockAllocator: AnyObject?, customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?, offsetToData: Int,
    dataLength: Int, flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    let buffer = CMBlockBuffer(segments: [])
    let status = CMBlockBufferAppendMemoryBlock(
        buffer, memoryBlock: memoryBlock, length: blockLength, blockAllocator: blockAllocator,
        customBlockSource: customBlockSource, offsetToData: offsetToData, dataLength: dataLength, flags: flags)
    guard status == noErr else { return status }
    blockBufferOut.pointee = buffer
    return noErr
}

/// Appends a memory block to a block buffer (see `CMBlockBufferCreateWithMemoryBlock`).
@discardableResult
public func CMBlockBufferAppendMemoryBlock(
    _ theBuffer: CMBlockBuffer, memoryBlock: UnsafeMutableRawPointer?, length blockLength: Int, blockAllocator: AnyObject?,
    customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?, offsetToData: Int, dataLength: Int,
    flags: CMBlockBufferFlags
) -> OSStatus {
    guard blockLength >= 0, dataLength >= 0 else { return kCMBlockBufferBadLengthParameterErr }
    guard offsetToData >= 0, offsetToData + dataLength <= blockLength else {
        return offsetToData < 0 || offsetToData > blockLength ? kCMBlockBufferBadOffsetParameterErr : kCMBlockBufferBadLengthParameterErr
    }
    if let source = customBlockSource?.pointee, source.version != kCMBlockBufferCustomBlockSourceVersion {
        return kCMBlockBufferBadCustomBlockSourceErr
    }
    let block = CMBlockBuffer.MemoryBlock(
        pointer: memoryBlock, length: blockLength, allocator: blockAllocator, source: customBlockSource?.pointee)
    if memoryBlock == nil, flags & kCMBlockBufferAssureMemoryNowFlag != 0, !block.assure() {
        return kCMBlockBufferBlockAllocationFailedErr
    }
    theBuffer.append([.init(block: block, offset: offsetToData, length: dataLength)])
    return noErr
}

/// Makes a block buffer over `dataLength` bytes of another from `offsetToData`, sharing
/// its memory (copying it with `kCMBlockBufferAlwaysCopyDataFlag`).
@discardableResult
public func CMBlockBufferCreateWithBufferReference(
    allocator structureAllocator: AnyObject?, referenceBuffer bufferReference: CMBlockBuffer, offsetToData: Int,
    dataLength: Int, flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    let buffer = CMBlockBuffer(segments: [])
    let status = CMBlockBufferAppendBufferReference(
        buffer, targetBBuf: bufferReference, offsetToData: offsetToData, dataLength: dataLength, flags: flags)
    guard status == noErr else { return status }
    blockBufferOut.pointee = buffer
    return noErr
}

/// Appends `dataLength` bytes of `targetBBuf` from `offsetToData` to a block buffer.
@discardableResult
public func CMBlockBufferAppendBufferReference(
    _ theBuffer: CMBlockBuffer, targetBBuf: CMBlockBuffer, offsetToData: Int, dataLength: Int, flags: CMBlockBufferFlags
) -> OSStatus {
    let total = targetBBuf.dataLength
    if total == 0 && flags & kCMBlockBufferPermitEmptyReferenceFlag == 0 { return kCMBlockBufferEmptyBBufErr }
    guard offsetToData >= 0, offsetToData <= total else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetToData + dataLength <= total else { return kCMBlockBufferBadLengthParameterErr }
    if flags & kCMBlockBufferAlwaysCopyDataFlag != 0 {
        guard let copy = CMBlockBuffer(allocating: dataLength) else { return kCMBlockBufferBlockAllocationFailedErr }
        let status = CMBlockBufferCopyDataBytes(
            targetBBuf, atOffset: offsetToData, dataLength: dataLength, destination: copy.pieces[0].block.pointer!)
        guard status == noErr else { return status }
        theBuffer.append(copy.pieces)
    } else {
        theBuffer.append(targetBBuf.pieces(offset: offsetToData, length: dataLength) ?? [])
    }
    return noErr
}

/// Makes a block buffer holding `dataLength` bytes of `theSourceBuffer` from
/// `offsetToData` in one contiguous block: the source's own block when that range already
/// is contiguous (and `kCMBlockBufferAlwaysCopyDataFlag` is not given), else a copy.
/// `dataLength` 0 means to the end.
@discardableResult
public func CMBlockBufferCreateContiguous(
    allocator structureAllocator: AnyObject?, sourceBuffer theSourceBuffer: CMBlockBuffer, blockAllocator: AnyObject?,
    customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?, offsetToData: Int, dataLength: Int,
    flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    let total = theSourceBuffer.dataLength
    guard offsetToData >= 0, offsetToData <= total else { return kCMBlockBufferBadOffsetParameterErr }
    let length = dataLength == 0 ? total - offsetToData : dataLength
    guard length >= 0, offsetToData + length <= total else { return kCMBlockBufferBadLengthParameterErr }
    if flags & kCMBlockBufferAlwaysCopyDataFlag == 0,
        let runs = theSourceBuffer.pieces(offset: offsetToData, length: length), runs.count == 1
    {
        blockBufferOut.pointee = CMBlockBuffer(segments: runs)
        return noErr
    }
    let copy = CMBlockBuffer(segments: [])
    var status = CMBlockBufferAppendMemoryBlock(
        copy, memoryBlock: nil, length: length, blockAllocator: blockAllocator, customBlockSource: customBlockSource,
        offsetToData: 0, dataLength: length, flags: kCMBlockBufferAssureMemoryNowFlag)
    guard status == noErr else { return status }
    status = CMBlockBufferCopyDataBytes(
        theSourceBuffer, atOffset: offsetToData, dataLength: length, destination: copy.pieces[0].block.pointer!)
    guard status == noErr else { return status }
    blockBufferOut.pointee = copy
    return noErr
}

/// Makes every memory block of the buffer that has no memory yet.
@discardableResult
public func CMBlockBufferAssureBlockMemory(_ theBuffer: CMBlockBuffer) -> OSStatus {
    for piece in theBuffer.pieces where !piece.block.assure() { return kCMBlockBufferBlockAllocationFailedErr }
    return noErr
}

/// Total bytes of the buffer.
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int { theBuffer.dataLength }

/// Whether the buffer holds no data.
public func CMBlockBufferIsEmpty(_ theBuffer: CMBlockBuffer) -> Bool { theBuffer.dataLength == 0 }

/// Whether `length` bytes from `offset` lie in one memory block.
public func CMBlockBufferIsRangeContiguous(_ theBuffer: CMBlockBuffer, atOffset offset: Int, length: Int) -> Bool {
    let wanted = length == 0 ? theBuffer.dataLength - offset : length
    guard let runs = theBuffer.pieces(offset: offset, length: wanted) else { return false }
    return runs.count <= 1
}

/// Copies `dataLength` bytes from `offsetToData` to `destination`.
@discardableResult
public func CMBlockBufferCopyDataBytes(
    _ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int, destination: UnsafeMutableRawPointer
) -> OSStatus {
    theSourceBuffer.forEachRun(offset: offsetToData, length: dataLength) { run, count, done in
        (destination + done).copyMemory(from: run, byteCount: count)
    }
}

/// Copies `dataLength` bytes from `sourceBytes` into the buffer at `offsetIntoDestination`.
@discardableResult
public func CMBlockBufferReplaceDataBytes(
    with sourceBytes: UnsafeRawPointer, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int,
    dataLength: Int
) -> OSStatus {
    destinationBuffer.forEachRun(offset: offsetIntoDestination, length: dataLength) { run, count, done in
        run.copyMemory(from: sourceBytes + done, byteCount: count)
    }
}

/// Sets `dataLength` bytes of the buffer from `offsetIntoDestination` to `fillByte`.
@discardableResult
public func CMBlockBufferFillDataBytes(
    with fillByte: CChar, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int, dataLength: Int
) -> OSStatus {
    destinationBuffer.forEachRun(offset: offsetIntoDestination, length: dataLength) { run, count, _ in
        run.initializeMemory(as: CChar.self, repeating: fillByte, count: count)
    }
}

/// Points at the data at `offset`: `lengthAtOffsetOut` gets how many bytes are
/// contiguous there, `totalLengthOut` the buffer's length.
@discardableResult
public func CMBlockBufferGetDataPointer(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, lengthAtOffsetOut: UnsafeMutablePointer<Int>?,
    totalLengthOut: UnsafeMutablePointer<Int>?, dataPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OSStatus {
    let total = theBuffer.dataLength
    guard offset >= 0, offset < total, let run = theBuffer.pieces(offset: offset, length: 1)?.first,
        let piece = theBuffer.pieces(offset: offset, length: total - offset)?.first
    else {
        dataPointerOut?.pointee = nil
        lengthAtOffsetOut?.pointee = 0
        totalLengthOut?.pointee = 0
        return kCMBlockBufferBadOffsetParameterErr
    }
    guard run.block.assure(), let base = run.block.pointer else { return kCMBlockBufferBlockAllocationFailedErr }
    dataPointerOut?.pointee = (base + run.offset).assumingMemoryBound(to: CChar.self)
    lengthAtOffsetOut?.pointee = piece.length
    totalLengthOut?.pointee = total
    return noErr
}

/// Points at `length` bytes from `offset`: into the buffer when they are contiguous,
/// else at `temporaryBlock` after copying them there.
@discardableResult
public func CMBlockBufferAccessDataBytes(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, length: Int, temporaryBlock: UnsafeMutableRawPointer,
    returnedPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> OSStatus {
    guard let runs = theBuffer.pieces(offset: offset, length: length) else {
        returnedPointerOut.pointee = nil
        return offset > theBuffer.dataLength ? kCMBlockBufferBadOffsetParameterErr : kCMBlockBufferBadLengthParameterErr
    }
    if runs.count == 1 {
        guard runs[0].block.assure(), let base = runs[0].block.pointer else { return kCMBlockBufferBlockAllocationFailedErr }
        returnedPointerOut.pointee = (base + runs[0].offset).assumingMemoryBound(to: CChar.self)
        return noErr
    }
    let status = CMBlockBufferCopyDataBytes(theBuffer, atOffset: offset, dataLength: length, destination: temporaryBlock)
    returnedPointerOut.pointee = status == noErr ? temporaryBlock.assumingMemoryBound(to: CChar.self) : nil
    return status
}

extension CMBlockBuffer {
    /// Whether the buffer holds no data (the Swift overlay's property).
    public var isEmpty: Bool { dataLength == 0 }
}
