import CYUV
import CaptureCore

/// Libyuv's full-range YCbCr-to-RGB constants at an address its AVX2 code accepts.
///
/// Libyuv loads these with aligned 32-byte vector moves. Swift cannot take the address of
/// the C global itself (`withUnsafePointer(to:)` hands over a stack copy of whatever
/// alignment, which faults), so a copy is made once into 64-byte-aligned memory that is
/// never written again nor freed.
struct DecodeMatrix: @unchecked Sendable {  // immutable after init; only ever read
    let pointer: UnsafePointer<YuvConstants>

    /// BT.709, full range (libyuv's kYuvF709Constants).
    static let bt709FullRange = DecodeMatrix(kYuvF709Constants)
    /// BT.601, full range (libyuv's kYuvJPEGConstants): what V4L2 cameras deliver by default.
    static let bt601FullRange = DecodeMatrix(kYuvJPEGConstants)
    /// BT.2020, full range (libyuv's kYuvV2020Constants): HLG frames.
    static let bt2020FullRange = DecodeMatrix(kYuvV2020Constants)

    /// The matrix `buffer`'s `kCVImageBufferYCbCrMatrixKey` attachment names: BT.601 when it
    /// says ITU_R_601_4 (V4L2 cameras), BT.2020 for ITU_R_2020 (HLG), BT.709 otherwise (the
    /// simulated cameras, the default).
    static func of(_ buffer: CVBuffer) -> DecodeMatrix {
        let tag = buffer.attachmentStore.withLock { $0[kCVImageBufferYCbCrMatrixKey] as? String }
        switch tag {
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4: return bt601FullRange
        case kCVImageBufferYCbCrMatrix_ITU_R_2020: return bt2020FullRange
        default: return bt709FullRange
        }
    }

    private init(_ constants: YuvConstants) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<YuvConstants>.size, alignment: 64)
        pointer = UnsafePointer(memory.initializeMemory(as: YuvConstants.self, repeating: constants, count: 1))
    }
}
