import Foundation
import Testing

/// `capture serve` never prints a token back, even a malformed one: error messages end up in
/// terminals, logs and CI output that others read.
@Suite("capture serve: tokens are not echoed")
struct TokenSecrecyTests {
    @Test("a malformed --token is refused naming the flag and the rule, without its value", arguments: ["short7!", "has a space in it", "tab\tinside-token"])
    func malformedTokenNotEchoed(_ token: String) throws {
        let output = try ToolRunner.capture("serve", "--listen", "127.0.0.1:0", "--token", token, "--duration", "1")
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("capture: --token takes 8...256 printable ASCII characters"), "\(output.stderr)")
        #expect(!output.stderr.contains(token), "the token is printed: \(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
    }

    @Test("the help says --token-file keeps the token out of the process list")
    func helpNamesTheSaferFlag() throws {
        let output = try ToolRunner.capture("serve", "--help")
        #expect(output.status == 0)
        let text = (output.stdout + output.stderr).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("keeps it out of the process list (/proc/PID/cmdline)"), "\(text)")
    }
}
