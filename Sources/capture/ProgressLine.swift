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
        let line = String(format: "\r%@ frames  %d dropped  %.1f fps  %.1f MB  %.1f s ", count, drops, rate, Double(bytes) / 1e6, elapsed)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
