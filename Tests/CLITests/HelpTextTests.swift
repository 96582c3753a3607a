import Foundation
import Testing

@Suite("capture help, usage and version")
struct HelpTextTests {
    @Test("each command's --help is exactly its golden text", arguments: HelpGoldens.commands.map(\.name))
    func commandHelp(name: String) throws {
        let golden = HelpGoldens.commands.first { $0.name == name }!.help
        for flag in ["--help", "-h"] {
            let output = try ToolRunner.capture(name, flag)
            #expect(output.status == 0)
            #expect(output.stdout == golden + "\n", "\(name) \(flag) differs from the golden text")
            #expect(output.stderr.isEmpty)
        }
        #expect(try ToolRunner.capture("help", name).stdout == golden + "\n")
    }

    /// The usage lists every command there is: each name in it has a help of its own.
    @Test("--help prints the usage; bare capture prints it to standard error and exits 2")
    func usage() throws {
        let help = try ToolRunner.capture("--help")
        #expect(help.status == 0 && help.stdout == HelpGoldens.usage + "\n")
        let bare = try ToolRunner.run("capture", [])
        #expect(bare.status == 2)
        #expect(bare.stdout.isEmpty && bare.stderr == HelpGoldens.usage + "\n")
        for (name, _) in HelpGoldens.commands { #expect(HelpGoldens.usage.contains("\n  \(name) ")) }
    }

    @Test("--version prints the version on one line")
    func version() throws {
        let output = try ToolRunner.capture("--version")
        #expect(output.status == 0)
        #expect(output.stdout == "capture 0.1.0 (OpenCapture)\n")
        let extra = try ToolRunner.capture("--version", "now")
        #expect(extra.status == 2 && extra.stderr == "capture: --version takes no arguments\n")
    }

    /// The list of commands in the message comes from the same declarations as the help.
    @Test("an unknown command's message lists every command, preview included")
    func unknownCommand() throws {
        let output = try ToolRunner.capture("bogus")
        #expect(output.status == 2)
        let names = HelpGoldens.commands.map(\.name).joined(separator: ", ")
        #expect(output.stderr == "capture: unknown command 'bogus' (commands: \(names); see 'capture --help')\n")
    }
}
