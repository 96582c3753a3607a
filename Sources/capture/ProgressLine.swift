import Foundation

/// A one-line progress display on standard error, only when it is a terminal.
final class ProgressLine: @unchecked Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast
    private let started = Date()
    private var drawn = false

    func update(frames: Int, of total: Int, drops: Int, bytes: Int) {
        guard isTerminal else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || frames == total else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(frames) / elapsed : 0
        let line = String(format: "\r%d/%d frames  %d dropped  %.1f fps  %.1f MB  %.1f s ", frames, total, drops, rate, Double(bytes) / 1e6, elapsed)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
