import CFFmpegRuntime

/// FFmpeg's libraries, loaded on first use (CFFmpegRuntime explains why).
enum FFmpegLibraries {
    /// Loads FFmpeg if it is not loaded yet; the error says which library or function is
    /// missing. Call it before the first FFmpeg call of an operation that can fail.
    static func load() throws(MovieWriterError) {
        var message = [CChar](repeating: 0, count: 512)
        guard oc_ffmpeg_load(&message, message.count) == 0 else {
            throw .encoder(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Whether FFmpeg loads.
    static var available: Bool { (try? load()) != nil }
}
