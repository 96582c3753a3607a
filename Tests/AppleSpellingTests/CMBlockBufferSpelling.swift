// CMBlockBuffer.h and the CoreMedia Swift overlay's CMBlockBuffer, spelled as iOS code spells them.
import CoreMedia
import Foundation
import Testing

/// Touches the block-buffer overlay declarations; compiled, never called.
func spellCMBlockBuffer(_ sampleBuffer: CMSampleBuffer, memory: UnsafeMutableRawBufferPointer) throws {
    let empty: CMBlockBuffer = try CMBlockBuffer(capacity: 4, flags: [])
    let owned: CMBlockBuffer = try CMBlockBuffer(buffer: memory, allocator: kCFAllocatorNull, flags: [.assureMemoryNow])
    let sliced: CMBlockBuffer = try CMBlockBuffer(buffer: memory[0..<2], allocator: kCFAllocatorNull)
    let made: CMBlockBuffer = try CMBlockBuffer(length: 16, allocator: kCFAllocatorDefault, flags: .assureMemoryNow)
    let ranged: CMBlockBuffer = try CMBlockBuffer(length: 16, range: 4..<8)
    let freed: CMBlockBuffer = try CMBlockBuffer(buffer: memory, deallocator: { _, _ in })
    let custom: CMBlockBuffer = try CMBlockBuffer(
        length: 8, allocator: { UnsafeMutableRawPointer.allocate(byteCount: $0, alignment: 16) }, deallocator: { pointer, _ in pointer.deallocate() })
    let reference: CMBlockBuffer = try CMBlockBuffer(bufferReference: made[2..<6], flags: [])
    try empty.append(length: 8, allocator: kCFAllocatorDefault, range: nil, flags: [])
    try empty.append(buffer: memory, allocator: kCFAllocatorNull)
    try empty.append(buffer: memory[1...], deallocator: { _, _ in })
    try empty.append(bufferReference: made, flags: [.permitEmptyReference])
    try empty.assureBlockMemory()
    let first: UInt8 = try made.withUnsafeMutableBytes(atOffset: 0) { $0[0] }
    let data: Data = try sampleBuffer.dataBuffer!.dataBytes()
    let slice: CMBlockBuffer.Slice = made[...]
    let facts: (Int, Bool, Bool, Int, Int, CMBlockBuffer) = (slice.dataLength, slice.isContiguous, made.isEmpty, slice.startIndex, slice.endIndex, slice.owner)
    try slice.copyDataBytes(to: memory)
    try slice.replaceDataBytes(with: UnsafeRawBufferPointer(memory))
    try slice.fillDataBytes(with: 0)
    let contiguous: CMBlockBuffer = try empty.makeContiguous(allocator: kCFAllocatorDefault, flags: [])
    let viaClosures: CMBlockBuffer = try empty[0..<4].makeContiguous(allocator: { _ in nil }, deallocator: { _, _ in })
    let sum: Int = try made.withContiguousStorage { $0.count }
    let flags: [CMBlockBuffer.Flags] = [.assureMemoryNow, .alwaysCopyData, .dontOptimizeDepth, .permitEmptyReference]
    let errors: [NSError] = [
        CMBlockBuffer.Error.structureAllocationFailed, CMBlockBuffer.Error.blockAllocationFailed, CMBlockBuffer.Error.badCustomBlockSource,
        CMBlockBuffer.Error.badOffsetParameter, CMBlockBuffer.Error.badLengthParameter, CMBlockBuffer.Error.badPointerParameter,
        CMBlockBuffer.Error.emptyBlockBuffer, CMBlockBuffer.Error.unallocatedBlock, CMBlockBuffer.Error.insufficientSpace,
    ]
    let typeIDs: (CFTypeID, CFTypeID) = (CMBlockBuffer.typeID, CMBlockBufferGetTypeID())
    let aliases: (CMBlockBuffer.CustomBlockAllocator, CMBlockBuffer.CustomBlockDeallocator) = ({ _ in nil }, { _, _ in })
    _ = (owned, sliced, ranged, freed, custom, reference, first, data, facts, contiguous, viaClosures, sum, flags, errors, typeIDs, aliases)
}

@Suite("CMBlockBuffer overlay")
struct CMBlockBufferSpellingTests {
    static func filled(_ bytes: [UInt8]) throws -> CMBlockBuffer {
        let buffer = try CMBlockBuffer(length: bytes.count, flags: .assureMemoryNow)
        try bytes.withUnsafeBytes { try buffer.replaceDataBytes(with: $0) }
        return buffer
    }

    @Test("bytes in, dataBytes out; slices read and write the owner's bytes")
    func bytesAndSlices() throws {
        let buffer = try Self.filled(Array(0..<8))
        #expect(buffer.dataLength == 8 && !buffer.isEmpty && buffer.isContiguous)
        #expect(try buffer.dataBytes() == Data(0..<8))
        let middle = buffer[2..<5]
        #expect(middle.dataLength == 3 && middle.startIndex == 2)
        #expect(try middle.dataBytes() == Data([2, 3, 4]))
        try middle.fillDataBytes(with: 9)
        #expect(try buffer.dataBytes() == Data([0, 1, 9, 9, 9, 5, 6, 7]))
        #expect(try buffer[6...].dataBytes() == Data([6, 7]))
        #expect(try buffer[..<1].dataBytes() == Data([0]))
        #expect(try buffer.withUnsafeMutableBytes(atOffset: 5) { $0.count } == 3)
        #expect(throws: (any Error).self) { try buffer.withUnsafeMutableBytes(atOffset: 9) { _ in } }
        let tooMany = [UInt8](repeating: 0, count: 4)
        #expect(throws: (any Error).self) { try tooMany.withUnsafeBytes { try middle.replaceDataBytes(with: $0) } }
    }

    @Test("appended pieces: not contiguous until made so; a reference shares memory")
    func appendAndContiguous() throws {
        let buffer = try Self.filled([1, 2])
        try buffer.append(bufferReference: try Self.filled([3, 4, 5]))
        #expect(buffer.dataLength == 5 && !buffer.isContiguous && buffer[0..<2].isContiguous)
        #expect(throws: (any Error).self) { try buffer.withContiguousStorage { _ in } }
        let joined = try buffer.makeContiguous()
        #expect(joined.isContiguous)
        #expect(try joined.dataBytes() == Data([1, 2, 3, 4, 5]))
        let shared = try CMBlockBuffer(bufferReference: buffer[1..<3])
        try [UInt8(7), 8].withUnsafeBytes { try shared.replaceDataBytes(with: $0) }
        #expect(try buffer.dataBytes() == Data([1, 7, 8, 4, 5]), "a reference writes through to the memory it shares")
    }

    @Test("a custom deallocator is called once the buffer goes")
    func deallocator() throws {
        final class Box: @unchecked Sendable { var freed = 0 }
        let box = Box()
        do {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 4)
            let buffer = try CMBlockBuffer(buffer: memory, deallocator: { pointer, length in
                box.freed = length
                pointer.deallocate()
            })
            #expect(buffer.dataLength == 4)
        }
        #expect(box.freed == 4)
    }
}
