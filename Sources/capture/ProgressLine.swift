import Foundation

/// A one-line progress display on standard error, only when it is a terminal.
final class ProgressLine: @unchecked Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast
    private let started = Date()
    private var drawn = false

    /// Draws the line; `total` 0 means open-ended (recording until stopped).
    func update(frames: Int, of total: Int, drops: Int, bytes: Int, elapsed given: TimeInterval? = nil) {
        guard isTerminal else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || frames == total else { return }
        lastDraw = now
        let elapsed = given ?? now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(frames) / elapsed : 0
        let count = total > 0 ? "\(frames)/\(total)" : "\(frames)"
        let noun = total > 0 || frames != 1 ? "frames" : "frame"
        let line = String(format: "\r%@ %@  %d dropped  %.1f fps  %.1f MB  %.1f s ", count, noun, drops, rate, Double(bytes) / 1e6, elapsed)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    /// Draws the audio line: seconds recorded and a level meter (the last buffer's RMS and
    /// the peak of the last second, dBFS, with a bar of the RMS from −60 dBFS to 0).
    func audio(seconds: Double, average: Float, peak: Float) {
        guard isTerminal else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let filled = max(0, min(20, Int(((average + 60) / 3).rounded())))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
        let line = String(format: "\r%.1f s  [%@]  level %.1f dBFS  peak %.1f dBFS ", seconds, bar, average, peak)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
