import Foundation

/// Appends bare pixel buffers with their times to a video `AVAssetWriterInput`, and gives
/// out a pool of buffers of the attributes asked for (or of the input's size, 'BGRA').
open class AVAssetWriterInputPixelBufferAdaptor: NSObject, @unchecked Sendable {
    private let storedAssetWriterInput: AVAssetWriterInput
    open var assetWriterInput: AVAssetWriterInput { storedAssetWriterInput }
    private let storedSourcePixelBufferAttributes: [String: Any]?
    open var sourcePixelBufferAttributes: [String: Any]? { storedSourcePixelBufferAttributes }
    private let pool = Mutex<CVPixelBufferPool?>(nil)

    /// Creates an adaptor; raises for an input whose writer has already started writing,
    /// or one that has an adaptor already, as on iOS.
    public init(assetWriterInput input: AVAssetWriterInput, sourcePixelBufferAttributes: [String: Any]?) {
        storedAssetWriterInput = input
        self.storedSourcePixelBufferAttributes = sourcePixelBufferAttributes
        super.init()
        enforce {
            let reason: String? = input.state.withLock { s in
                if let writer = s.writer, writer.status != .unknown {
                    return "Cannot create a new pixel buffer adaptor with an asset writer input that has already started writing"
                }
                if s.adaptor { return "Cannot create a new pixel buffer adaptor with an asset writer input that already has one" }
                s.adaptor = true
                return nil
            }
            if let reason {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVAssetWriterInputPixelBufferAdaptor", "initWithAssetWriterInput:sourcePixelBufferAttributes:", reason))
            }
        }
    }

    /// Buffers for `append(_:withPresentationTime:)`: nil until the writer started writing
    /// (and after it failed), as on iOS.
    open var pixelBufferPool: CVPixelBufferPool? {
        guard let writer = assetWriterInput.state.withLock({ $0.writer }), writer.status == .writing else { return nil }
        return pool.withLock { existing in
            if let existing { return existing }
            let settings = assetWriterInput.outputSettings ?? [:]
            let attributes = sourcePixelBufferAttributes ?? [:]
            let width = integer(attributes[kCVPixelBufferWidthKey]) ?? integer(settings[AVVideoWidthKey]) ?? 0
            let height = integer(attributes[kCVPixelBufferHeightKey]) ?? integer(settings[AVVideoHeightKey]) ?? 0
            let code = integer(attributes[kCVPixelBufferPixelFormatTypeKey]).map { OSType(truncatingIfNeeded: $0) } ?? kCVPixelFormatType_32BGRA
            guard width > 0, height > 0, let format = PixelFormat(rawValue: code) else { return nil }
            let made = CVPixelBufferPool(format: format, width: width, height: height)
            existing = made
            return made
        }
    }

    /// Appends a frame at `presentationTime`. False when the writer is not writing; raises
    /// before the session started or after `markAsFinished()`.
    @discardableResult
    open func append(_ pixelBuffer: CVPixelBuffer, withPresentationTime presentationTime: CMTime) -> Bool {
        var accepted = false
        enforce {
            accepted = try assetWriterInput.submit(
                .video(pixelBuffer, presentationTime), selector: "appendPixelBuffer:withPresentationTime:", what: "pixel buffer",
                type: "AVAssetWriterInputPixelBufferAdaptor")
        }
        return accepted
    }
}
