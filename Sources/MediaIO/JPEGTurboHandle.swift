import CTurboJPEG

/// Owns a TurboJPEG compressor or decompressor instance and destroys it.
///
/// An instance is not thread-safe, so each encode or decode makes its own; creating one
/// costs microseconds next to the milliseconds of a photo.
final class JPEGTurboHandle {
    /// The instance, valid while this object lives.
    let raw: tjhandle

    enum Kind { case compressor, decompressor }

    init(_ kind: Kind) throws {
        let made = kind == .compressor ? tjInitCompress() : tjInitDecompress()
        guard let made else { throw JPEGError.turboJPEG("cannot create a TurboJPEG instance") }
        raw = made
    }

    deinit { tjDestroy(raw) }

    /// The instance's last error message.
    var errorMessage: String {
        tjGetErrorStr2(raw).map { String(cString: $0) } ?? "unknown TurboJPEG error"
    }

    /// Whether the last failure was only a warning, such as a truncated but decodable file.
    var lastErrorIsWarning: Bool { tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) }
}
