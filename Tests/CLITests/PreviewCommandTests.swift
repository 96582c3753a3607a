import Foundation
import Testing

@Suite("capture preview", .serialized)
struct PreviewCommandTests {
    /// Pictures drawn with 24-bit colour half blocks, one line per two pixel rows, then a
    /// status line; the cursor is hidden while drawing and shown again at the end.
    @Test func drawsPicturesInTheTerminal() throws {
        let output = try ToolRunner.capture("preview", "--columns", "48", "--rows", "10", "--frames", "2", "--seed", "3")
        #expect(output.status == 0, "\(output.stderr)")
        let text = output.stdout
        #expect(text.hasPrefix("\u{1B}[?25l"))
        #expect(text.hasSuffix("\u{1B}[?25h\n"))
        #expect(text.contains("\u{1B}[38;2;") && text.contains("\u{1B}[48;2;"))
        #expect(text.contains("48x18  picture 2"))
        // Each picture: 9 lines of 48 half blocks.
        let pictures = text.components(separatedBy: "\u{1B}[H").dropFirst()
        #expect(pictures.count == 2)
        for picture in pictures {
            let lines = picture.components(separatedBy: "\r\n")
            #expect(lines.count == 10)
            #expect(lines.dropLast().allSatisfy { $0.filter { $0 == "\u{2580}" }.count == 48 })
        }
    }

    @Test("bad preview options exit 2 with one line", arguments: [
        (["preview", "--gravity", "wide"], "--gravity must be fit, fill or stretch, not 'wide'"),
        (["preview", "--columns", "3"], "--columns must be a whole number in 8...2000, not '3'"),
        (["preview", "--frames", "0"], "--frames must be a whole number in 1...10000000, not '0'"),
        (["preview", "--device", "nope"], "unknown device 'nope'"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }
}
