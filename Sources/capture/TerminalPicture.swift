import Foundation
import OpenCapture

/// Draws BGRA pictures in a terminal with 24-bit colour: each character cell shows two
/// pixels, the upper as the foreground of "▀" and the lower as its background, so a
/// picture W pixels wide and 2·R high fills W columns and R rows.
struct TerminalPicture {
    /// The bytes of one picture drawn from the top-left corner of the screen, followed by
    /// `status` on the line below it. Colours are only sent when they change.
    static func draw(_ picture: CVPixelBuffer, status: String) -> [UInt8] {
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        let width = CVPixelBufferGetWidth(picture), height = CVPixelBufferGetHeight(picture)
        let stride = CVPixelBufferGetBytesPerRow(picture)
        guard let base = CVPixelBufferGetBaseAddress(picture)?.assumingMemoryBound(to: UInt8.self) else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(width * (height / 2) * 24 + 64)
        out += Array("\u{1B}[H".utf8)
        for row in 0..<(height / 2) {
            var foreground: (UInt8, UInt8, UInt8)? = nil, background: (UInt8, UInt8, UInt8)? = nil
            let upper = base + 2 * row * stride, lower = upper + stride
            for x in 0..<width {
                let top = (upper[4 * x + 2], upper[4 * x + 1], upper[4 * x])
                let bottom = (lower[4 * x + 2], lower[4 * x + 1], lower[4 * x])
                if foreground.map({ $0 != top }) ?? true {
                    out += Array("\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m".utf8)
                    foreground = top
                }
                if background.map({ $0 != bottom }) ?? true {
                    out += Array("\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m".utf8)
                    background = bottom
                }
                out += [0xE2, 0x96, 0x80]  // U+2580 UPPER HALF BLOCK
            }
            out += Array("\u{1B}[0m\r\n".utf8)
        }
        out += Array("\u{1B}[0m\u{1B}[K\(status)".utf8)
        return out
    }

    /// Columns and rows of the terminal on standard output, nil when it is not a terminal.
    static func terminalSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
        else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
