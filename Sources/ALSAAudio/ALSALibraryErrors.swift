import CALSA

/// libasound prints its own error lines to stderr ("ALSA lib confmisc.c:855:(parse_card)
/// cannot find card '0'", for every open of `default` on a machine without a sound card);
/// OpenCapture reports the same failures through its own errors, so they are silenced on
/// the thread that opens and probes a PCM.
enum ALSALibraryErrors {
    /// Runs `body` with libasound's error messages dropped on this thread (its thread-local
    /// handler, which takes precedence over the process-wide one), then restores the handler.
    static func quietly<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = snd_lib_error_set_local(silence)
        defer { snd_lib_error_set_local(previous) }
        return try body()
    }

    private static let silence: snd_local_error_handler_t = { _, _, _, _, _, _ in }
}
